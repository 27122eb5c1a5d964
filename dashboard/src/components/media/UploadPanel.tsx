import { useEffect, useRef, useState } from 'react';
import { UploadCloud } from 'lucide-react';
import { toast } from 'sonner';
import { errorMessage } from '@/lib/errors';
import { useUploadMediaMutation } from '@/lib/mediaApi';
import type { Media } from '@/lib/types';
import { validateUpload } from './upload';

interface Props {
  onUploaded?: (media: Media) => void;
}

/** Drag-and-drop or click upload with the spec's progress (10, +10 every 300 ms up to 90, 100 at the end). */
export function UploadPanel({ onUploaded }: Props) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [upload] = useUploadMediaMutation();
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);

  useEffect(() => () => {
    if (timer.current) clearInterval(timer.current);
  }, []);

  async function send(file: File) {
    const problem = validateUpload(file);
    if (problem) {
      setError(problem);
      toast.error(problem);
      return;
    }
    setError(null);
    setProgress(10);
    timer.current = setInterval(() => setProgress((p) => (p === null ? p : Math.min(90, p + 10))), 300);
    try {
      const reply = await upload(file).unwrap();
      setProgress(100);
      toast.success(reply.message || 'File uploaded successfully');
      onUploaded?.(reply.media);
    } catch (err) {
      const msg = errorMessage(err, 'Upload failed');
      setError(msg);
      toast.error(msg);
    } finally {
      if (timer.current) clearInterval(timer.current);
      timer.current = null;
      setTimeout(() => setProgress(null), 600);
    }
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
          if (e.key === 'Enter' || e.key === ' ') inputRef.current?.click();
        }}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          const file = e.dataTransfer.files?.[0];
          if (file) void send(file);
        }}
      >
        <UploadCloud size={28} aria-hidden="true" />
        <div>
          <strong>Drag and drop an image here, or click to select</strong>
        </div>
        <div className="small">Images only, up to 5 MB</div>
        <input
          ref={inputRef}
          type="file"
          accept="image/*"
          hidden
          data-testid="media-file-input"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void send(file);
          }}
        />
      </div>
      {progress !== null ? (
        <div className="progress" role="progressbar" aria-label="Upload progress" aria-valuenow={progress} aria-valuemin={0} aria-valuemax={100}>
          <span style={{ width: `${progress}%` }} />
        </div>
      ) : null}
      {error ? <div className="field-error">{error}</div> : null}
    </div>
  );
}
