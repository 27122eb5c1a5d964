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
export const TEXT_COLORS = [
  { color: 'inherit', label: 'Default' },
  { color: '#000000', label: 'Black' },
  { color: '#6b7280', label: 'Gray' },
  { color: '#dc2626', label: 'Red' },
  { color: '#ea580c', label: 'Orange' },
  { color: '#ca8a04', label: 'Yellow' },
  { color: '#16a34a', label: 'Green' },
  { color: '#0d9488', label: 'Teal' },
  { color: '#2563eb', label: 'Blue' },
  { color: '#4f46e5', label: 'Indigo' },
  { color: '#9333ea', label: 'Purple' },
  { color: '#db2777', label: 'Pink' },
];

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
