/** The part of the editor instance the form uses (kept free of CKEditor imports so it stays lazy). */
export interface EditorHandle {
  getData(): string;
  execute(command: string, ...args: unknown[]): unknown;
  editing: { view: { focus(): void } };
}

export interface CkEditorFieldProps {
  value: string;
  onChange: (html: string) => void;
  onReady?: (editor: EditorHandle | null) => void;
  onRequestImage: () => void;
  onCopyHtml: () => void;
  ariaLabel?: string;
}

/** The 12 text colour swatches of the spec. */
export const TEXT_COLORS = Object.entries({
  Default: 'inherit', Black: '#000000', Gray: '#6b7280', Red: '#dc2626',
  Orange: '#ea580c', Yellow: '#ca8a04', Green: '#16a34a', Teal: '#0d9488',
  Blue: '#2563eb', Indigo: '#4f46e5', Purple: '#9333ea', Pink: '#db2777',
}).map(([label, color]) => ({ color, label }));

export const TOOLBAR = [
  'bold',
  'italic',
  'underline',
  '|',
  'fontColor',
  '|',
  'heading',
  '|',
  'alignment:left',
  'alignment:center',
  'alignment:right',
  '|',
  'bulletedList',
  'numberedList',
  '|',
  'link',
  'insertMediaImage',
  '|',
  'copyHtml',
];
