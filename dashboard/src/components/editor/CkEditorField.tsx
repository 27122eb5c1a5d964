import { useMemo, useRef, useState } from 'react';
import { CKEditor } from '@ckeditor/ckeditor5-react';
import { ButtonView, ClassicEditor, IconCopy, IconImage, Plugin, type EditorConfig } from 'ckeditor5';
import 'ckeditor5/ckeditor5.css';
import { editorConfig } from './config';
import type { CkEditorFieldProps, EditorHandle } from './types';

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

/** CKEditor 5 (classic) with the spec's toolbar, keeping what the server's sanitiser keeps
 * (./config). Loaded lazily: this module is its own chunk. */
export default function CkEditorField({ value, onChange, onReady, onRequestImage, onCopyHtml, ariaLabel }: CkEditorFieldProps) {
  const callbacks = useRef({ onRequestImage, onCopyHtml });
  callbacks.current = { onRequestImage, onCopyHtml };
  // The config must stay the same object for the editor's lifetime (the first value seeds it).
  const [initialData] = useState(value);
  const config = useMemo<EditorConfig>(
    () =>
      editorConfig(initialData, [
        callbackButton('insertMediaImage', 'Insert image from media library', IconImage, () =>
          callbacks.current.onRequestImage(),
        ),
        callbackButton('copyHtml', 'Copy HTML', IconCopy, () => callbacks.current.onCopyHtml()),
      ]),
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
