import { useId, useState } from 'react';
import { ImagePlus, Trash2 } from 'lucide-react';
import { mediaUrl } from '@/api/media';
import { MediaPickerDialog } from './MediaPickerDialog';

/** An image chosen from the media library (`id` null: an address kept as it was given, an import's). */
export interface PickedImage {
  id: string | null;
  url: string;
  alt?: string;
}

interface Props {
  label: string;
  value: PickedImage | null;
  onChange: (value: PickedImage | null) => void;
  /** The empty field's button and the picker's title ("Select Featured Image"). */
  pickLabel: string;
  error?: string;
  hint?: string;
  readOnly?: boolean;
  /** A logo or an icon is shown whole (`contain`); a cover or featured image fills a 16:9 box. */
  fit?: 'cover' | 'contain';
}

/** An image field: the library's picker (choose or upload), the chosen image's preview, Change and
 *  Remove. The post editor's featured image, the site's logo, icon and cover, a profile's picture. */
export function ImagePickerField({ label, value, onChange, pickLabel, error, hint, readOnly = false, fit = 'cover' }: Props) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field" role="group" aria-labelledby={`${id}-label`} aria-describedby={described}>
      <span className="label" id={`${id}-label`}>
        {label}
      </span>
      {value ? (
        <>
          {value.url ? <img className={fit === 'cover' ? 'featured-preview' : 'featured-preview contain'} src={value.url} alt={value.alt || label} /> : null}
          {readOnly ? null : (
            <div className="row">
              <button type="button" className="btn btn-secondary btn-sm grow" onClick={() => setOpen(true)}>
                <ImagePlus size={14} /> Change Image
              </button>
              <button type="button" className="btn btn-secondary btn-sm" onClick={() => onChange(null)}>
                <Trash2 size={14} /> Remove
              </button>
            </div>
          )}
        </>
      ) : readOnly ? (
        <span className="small muted">None</span>
      ) : (
        <button type="button" className="dropzone" onClick={() => setOpen(true)} aria-invalid={!!error}>
          <ImagePlus size={22} aria-hidden="true" />
          <div>{pickLabel}</div>
        </button>
      )}
      {hint ? (
        <span className="field-hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      {error ? (
        <span className="field-error" role="alert" id={`${id}-error`}>
          {error}
        </span>
      ) : null}
      <MediaPickerDialog
        open={open}
        title={pickLabel}
        onClose={() => setOpen(false)}
        onSelect={(m) => onChange({ id: String(m.id), url: mediaUrl(m), alt: m.altText || m.fileName })}
      />
    </div>
  );
}
