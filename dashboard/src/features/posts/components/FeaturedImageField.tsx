import { useState } from 'react';
import { ImagePlus, Trash2 } from 'lucide-react';
import { mediaUrl } from '@/api/media';
import { MediaPickerDialog } from '@/components/media/MediaPickerDialog';

export interface FeaturedImage {
  id: string;
  url: string;
  alt?: string;
}

interface Props {
  value: FeaturedImage | null;
  onChange: (value: FeaturedImage | null) => void;
  error?: string;
}

export function FeaturedImageField({ value, onChange, error }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <div className="field">
      <span className="label">Featured Image</span>
      {value ? (
        <>
          {value.url ? <img className="featured-preview" src={value.url} alt={value.alt || 'Featured image'} /> : null}
          <div className="row">
            <button type="button" className="btn btn-secondary btn-sm grow" onClick={() => setOpen(true)}>
              <ImagePlus size={14} /> Change Image
            </button>
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => onChange(null)}>
              <Trash2 size={14} /> Remove
            </button>
          </div>
        </>
      ) : (
        <button type="button" className="dropzone" onClick={() => setOpen(true)} aria-invalid={!!error}>
          <ImagePlus size={22} aria-hidden="true" />
          <div>Select Featured Image</div>
        </button>
      )}
      {error ? (
        <span className="field-error" role="alert">
          {error}
        </span>
      ) : null}
      <MediaPickerDialog
        open={open}
        title="Select Featured Image"
        onClose={() => setOpen(false)}
        onSelect={(m) => onChange({ id: String(m.id), url: mediaUrl(m), alt: m.altText || m.fileName })}
      />
    </div>
  );
}
