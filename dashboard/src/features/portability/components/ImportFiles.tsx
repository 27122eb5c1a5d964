import { useId, useRef, type ReactNode } from 'react';
import { FileArchive, Upload, X } from 'lucide-react';
import { formatFileSize } from '@/lib/format';

interface PickProps {
  label: string;
  optional?: boolean;
  button: string;
  accept: string;
  testId: string;
  file: File | null;
  hint: ReactNode;
  disabled: boolean;
  primary?: boolean;
  onPick: (file: File) => void;
  onRemove?: () => void;
}

/** One file of the upload: its label, the file chosen, the button that opens the picker, its hint. */
function FilePick({ label, optional, button, accept, testId, file, hint, disabled, primary, onPick, onRemove }: PickProps) {
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  return (
    <div className="field" role="group" aria-labelledby={`${id}-label`} aria-describedby={`${id}-hint`}>
      <span className="label" id={`${id}-label`}>
        {label} {optional ? <span className="muted small">(optional)</span> : null}
      </span>
      <div className="row" style={{ flexWrap: 'wrap' }}>
        <button
          type="button"
          className={primary ? 'btn btn-primary' : 'btn btn-secondary'}
          onClick={() => input.current?.click()}
          disabled={disabled}
        >
          {primary ? <Upload size={16} aria-hidden="true" /> : <FileArchive size={16} aria-hidden="true" />} {button}
        </button>
        {file ? (
          <span className="small break">
            {file.name} <span className="muted">({formatFileSize(file.size)})</span>
          </span>
        ) : null}
        {file && onRemove ? (
          <button type="button" className="btn btn-secondary btn-sm" onClick={onRemove} disabled={disabled} aria-label={`Remove ${file.name}`}>
            <X size={14} aria-hidden="true" /> Remove
          </button>
        ) : null}
      </div>
      <input
        ref={input}
        type="file"
        accept={accept}
        hidden
        data-testid={testId}
        aria-label={label}
        onChange={(e) => {
          const picked = e.target.files?.[0];
          e.target.value = '';
          if (picked) onPick(picked);
        }}
      />
      <span className="field-hint" id={`${id}-hint`}>
        {hint}
      </span>
    </div>
  );
}

interface Props {
  busy: boolean;
  exportFile: File | null;
  images: File | null;
  onExport: (file: File) => void;
  onImages: (file: File | null) => void;
}

/** The export file and, beside it, the old site's images folder as a zip. */
export function ImportFiles({ busy, exportFile, images, onExport, onImages }: Props) {
  return (
    <div className="grid-2">
      <FilePick
        label="Export file"
        button={busy ? 'Reading the file...' : 'Choose export file'}
        accept=".xml,.json,.zip"
        testId="import-file-input"
        file={exportFile}
        disabled={busy}
        primary
        onPick={onExport}
        hint={
          <>
            WordPress: Tools → Export (an .xml file). Ghost: Settings → Labs → Export (a .json file, or the .zip with its
            images).
          </>
        }
      />
      <FilePick
        label="Images (zip)"
        optional
        button="Choose images (zip)"
        accept=".zip"
        testId="import-images-input"
        file={images}
        disabled={busy}
        onPick={onImages}
        onRemove={() => onImages(null)}
        hint={
          <>
            The old site&apos;s images folder, zipped: <code>wp-content/uploads</code> on a WordPress server,{' '}
            <code>content/images</code> in a Ghost install. Images that are not in it are downloaded from the old site.
          </>
        }
      />
    </div>
  );
}
