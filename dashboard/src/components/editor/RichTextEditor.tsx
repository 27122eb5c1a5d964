import { lazy, Suspense, useRef, useState } from 'react';
import { toast } from 'sonner';
import { mediaUrl } from '@/api/media';
import { copyText } from '@/lib/clipboard';
import { MediaPickerDialog } from '../media/MediaPickerDialog';
import { Spinner } from '../Spinner';
import type { EditorHandle } from './types';

const CkEditorField = lazy(() => import('./CkEditorField'));

interface Props {
  value: string;
  onChange: (html: string) => void;
  invalid?: boolean;
  label?: string;
}

/**
 * The rich-text form control: CKEditor (lazy) with an Editor/Preview toggle and a Visual/HTML
 * source toggle. Every mode edits or shows the same value.
 */
/** An absolute http(s) link to the image, or '' when the media has none usable. */
export function usableImageLink(link: string): string {
  if (!link) return '';
  try {
    const url = new URL(link, window.location.href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : '';
  } catch {
    return '';
  }
}

export function RichTextEditor({ value, onChange, invalid, label = 'Content' }: Props) {
  const [mode, setMode] = useState<'editor' | 'preview'>('editor');
  const [source, setSource] = useState<'visual' | 'html'>('visual');
  const [picking, setPicking] = useState(false);
  const editorRef = useRef<EditorHandle | null>(null);

  /** Insert the chosen image; false (the picker stays open) with the spec's message when it cannot be. */
  function insertImage(media: Parameters<typeof mediaUrl>[0]): boolean {
    const src = usableImageLink(mediaUrl(media));
    if (!src) {
      toast.error('No valid image link available');
      return false;
    }
    const alt = media?.altText || media?.fileName || '';
    try {
      if (source === 'visual' && editorRef.current) {
        editorRef.current.execute('insertImage', { source: [{ src, alt }] });
        editorRef.current.editing.view.focus();
      } else {
        onChange(`${value}<p><img src="${src}" alt="${alt.replace(/"/g, '&quot;')}"></p>`);
      }
      return true;
    } catch (err) {
      console.warn('Image insert failed', err);
      toast.error('No valid image link available');
      return false;
    }
  }

  return (
    <div className="editor-shell" style={invalid ? { borderColor: 'var(--danger)' } : undefined}>
      <div className="editor-toolbar-row">
        <div className="segmented" role="group" aria-label="Editor mode">
          <button type="button" aria-pressed={mode === 'editor'} onClick={() => setMode('editor')}>
            Editor
          </button>
          <button type="button" aria-pressed={mode === 'preview'} onClick={() => setMode('preview')}>
            Preview
          </button>
        </div>
        {mode === 'editor' ? (
          <div className="segmented" role="group" aria-label="Source mode">
            <button type="button" aria-pressed={source === 'visual'} onClick={() => setSource('visual')}>
              Visual
            </button>
            <button type="button" aria-pressed={source === 'html'} onClick={() => setSource('html')}>
              HTML
            </button>
          </div>
        ) : null}
      </div>
      {mode === 'preview' ? (
        <div className="content-preview prose" data-testid="content-preview" dangerouslySetInnerHTML={{ __html: value }} />
      ) : source === 'html' ? (
        <>
          <textarea
            className="html-source"
            aria-label={`${label} HTML source`}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            spellCheck={false}
          />
          <div className="row" style={{ padding: 8, borderTop: '1px solid var(--border)' }}>
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => setPicking(true)}>
              Insert image
            </button>
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => copyText(value)}>
              Copy HTML
            </button>
          </div>
        </>
      ) : (
        <Suspense
          fallback={
            <div className="state" style={{ minHeight: 300 }}>
              <Spinner label="Loading editor" />
              <span>Loading editor...</span>
            </div>
          }
        >
          <CkEditorField
            value={value}
            onChange={onChange}
            onReady={(e) => {
              editorRef.current = e;
            }}
            onRequestImage={() => setPicking(true)}
            onCopyHtml={() => copyText(editorRef.current?.getData() ?? value)}
            ariaLabel={label}
          />
        </Suspense>
      )}
      <MediaPickerDialog open={picking} title="Insert Image" onClose={() => setPicking(false)} onSelect={insertImage} />
    </div>
  );
}
