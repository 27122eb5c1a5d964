import { useEffect, useRef, useState } from 'react';
import { UploadCloud } from 'lucide-react';
import { toast } from 'sonner';
import { useUploadMediaMutation, type Media } from '@/api/media';
import { errorMessage } from '@/lib/errors';
import { toastFailure } from '../notify';
import { validateUpload } from './upload';

interface Props {
  onUploaded?: (media: Media) => void;
}

interface Item {
  key: number;
  name: string;
  progress: number;
  state: 'uploading' | 'done' | 'failed';
  error?: string;
}

/** Uploads at a time when a set of files is dropped or chosen. */
export const UPLOAD_CONCURRENCY = 2;

/**
 * Drag-and-drop or click upload of one file or a set of them. Each file has its own row with
 * the spec's progress (10, +10 every 300 ms up to 90, 100 at the end) and its own outcome.
 */
export function UploadPanel({ onUploaded }: Props) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [items, setItems] = useState<Item[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [upload] = useUploadMediaMutation();
  const timers = useRef(new Set<ReturnType<typeof setInterval>>());
  const nextKey = useRef(0);

  useEffect(() => {
    const all = timers.current;
    return () => all.forEach(clearInterval);
  }, []);

  const patch = (key: number, change: Partial<Item>) => setItems((list) => list.map((i) => (i.key === key ? { ...i, ...change } : i)));

  async function sendOne(file: File, key: number, many: boolean) {
    const timer = setInterval(() => setItems((list) => list.map((i) => (i.key === key && i.state === 'uploading' ? { ...i, progress: Math.min(90, i.progress + 10) } : i))), 300);
    timers.current.add(timer);
    try {
      const reply = await upload(file).unwrap();
      patch(key, { progress: 100, state: 'done' });
      if (!many) toast.success(reply.message || 'File uploaded successfully');
      onUploaded?.(reply.media);
      return true;
    } catch (err) {
      const msg = errorMessage(err, 'Upload failed');
      patch(key, { state: 'failed', error: msg });
      toastFailure(err, many ? `${file.name}: ${msg}` : msg);
      return false;
    } finally {
      clearInterval(timer);
      timers.current.delete(timer);
    }
  }

  async function send(files: File[]) {
    if (files.length === 0) return;
    const accepted: { file: File; key: number }[] = [];
    const refused: string[] = [];
    for (const file of files) {
      const problem = validateUpload(file);
      if (problem) refused.push(files.length > 1 ? `${file.name}: ${problem}` : problem);
      else accepted.push({ file, key: (nextKey.current += 1) });
    }
    setError(refused.length ? refused.join(' ') : null);
    if (refused.length) toast.error(refused.length === 1 ? refused[0] : `${refused.length} files were not uploaded: ${refused.join('; ')}`);
    if (accepted.length === 0) return;
    const many = accepted.length > 1;
    setItems((list) => [
      ...list.filter((i) => i.state === 'uploading'),
      ...accepted.map(({ file, key }) => ({ key, name: file.name, progress: 10, state: 'uploading' as const })),
    ]);
    const queue = [...accepted];
    let ok = 0;
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        if (await sendOne(next.file, next.key, many)) ok += 1;
      }
    };
    await Promise.all(Array.from({ length: Math.min(UPLOAD_CONCURRENCY, queue.length) }, worker));
    // One message for a set, so that a dropped folder does not bury the screen in toasts.
    if (many && ok > 0) toast.success(`${ok} of ${accepted.length} files uploaded`);
  }

  return (
    <div className="stack" style={{ gap: 8 }}>
      <div
        className={dragging ? 'dropzone dragging' : 'dropzone'}
        role="button"
        tabIndex={0}
        aria-label="Upload image"
        onClick={() => inputRef.current?.click()}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            inputRef.current?.click();
          }
        }}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          void send([...(e.dataTransfer.files ?? [])]);
        }}
      >
        <UploadCloud size={28} aria-hidden="true" />
        <div>
          <strong>Drag and drop images here, or click to select</strong>
        </div>
        <div className="small">Images only, up to 5 MB each; several at once</div>
        <input
          ref={inputRef}
          type="file"
          accept="image/*"
          multiple
          hidden
          data-testid="media-file-input"
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            void send(files);
          }}
        />
      </div>
      {items.length ? (
        <ul className="upload-list" aria-label="Uploads">
          {items.map((item) => (
            <li key={item.key} className="upload-item">
              <div className="row-between small">
                <span className="upload-name">{item.name}</span>
                <span className={item.state === 'failed' ? 'text-danger' : 'muted'}>
                  {item.state === 'failed' ? item.error : item.state === 'done' ? 'Uploaded' : `${item.progress}%`}
                </span>
              </div>
              <div
                className="progress"
                role="progressbar"
                aria-label={`Upload progress of ${item.name}`}
                aria-valuenow={item.progress}
                aria-valuemin={0}
                aria-valuemax={100}
              >
                <span style={{ width: `${item.progress}%` }} />
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      {error ? <div className="field-error">{error}</div> : null}
    </div>
  );
}
