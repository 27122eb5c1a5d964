import { useMemo, useRef, useState } from 'react';
import { CKEditor } from '@ckeditor/ckeditor5-react';
import {
  Alignment,
  Bold,
  ButtonView,
  ClassicEditor,
  Essentials,
  FontColor,
  Heading,
  IconCopy,
  IconImage,
  Image,
  ImageStyle,
  ImageToolbar,
  Italic,
  Link,
  List,
  Paragraph,
  Plugin,
  Underline,
  type EditorConfig,
} from 'ckeditor5';
import 'ckeditor5/ckeditor5.css';
import { TEXT_COLORS, TOOLBAR, type CkEditorFieldProps, type EditorHandle } from './types';

/** A toolbar button that calls back into React (image from the media picker, copy HTML). */
function callbackButton(name: string, label: string, icon: string, run: () => void) {
  return class extends Plugin {
    static get pluginName() {
      return `Callback_${name}`;
    }
    init() {
      this.editor.ui.componentFactory.add(name, (locale) => {
        const button = new ButtonView(locale);
        button.set({ label, icon, tooltip: true });
        button.on('execute', run);
        return button;
      });
    }
  };
}

/** CKEditor 5 (classic) with the spec's toolbar. Loaded lazily: this module is its own chunk. */
export default function CkEditorField({ value, onChange, onReady, onRequestImage, onCopyHtml, ariaLabel }: CkEditorFieldProps) {
  const callbacks = useRef({ onRequestImage, onCopyHtml });
  callbacks.current = { onRequestImage, onCopyHtml };
  // The config must stay the same object for the editor's lifetime (the first value seeds it).
  const [initialData] = useState(value);
  const config = useMemo<EditorConfig>(
    () => ({
      licenseKey: 'GPL',
      plugins: [
        Essentials,
        Paragraph,
        Bold,
        Italic,
        Underline,
        FontColor,
        Heading,
        Alignment,
        List,
        Link,
        Image,
        ImageToolbar,
        ImageStyle,
        callbackButton('insertMediaImage', 'Insert image from media library', IconImage, () =>
          callbacks.current.onRequestImage(),
        ),
        callbackButton('copyHtml', 'Copy HTML', IconCopy, () => callbacks.current.onCopyHtml()),
      ],
      toolbar: { items: TOOLBAR, shouldNotGroupWhenFull: false },
      fontColor: { colors: TEXT_COLORS, columns: 6, colorPicker: false },
      heading: {
        options: [
          { model: 'paragraph', title: 'Paragraph', class: 'ck-heading_paragraph' },
          { model: 'heading1', view: 'h1', title: 'Heading 1', class: 'ck-heading_heading1' },
          { model: 'heading2', view: 'h2', title: 'Heading 2', class: 'ck-heading_heading2' },
          { model: 'heading3', view: 'h3', title: 'Heading 3', class: 'ck-heading_heading3' },
        ],
      },
      alignment: { options: ['left', 'center', 'right'] },
      link: { defaultProtocol: 'https://' },
      image: { toolbar: ['imageTextAlternative'] },
      initialData,
    }),
    [initialData],
  );

  return (
    <div className="ck-field" aria-label={ariaLabel}>
      <CKEditor
        editor={ClassicEditor}
        config={config}
        onReady={(editor) => onReady?.(editor as unknown as EditorHandle)}
        onAfterDestroy={() => onReady?.(null)}
        onChange={(_event, editor) => onChange(editor.getData())}
      />
    </div>
  );
}
