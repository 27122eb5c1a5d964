import { useState } from 'react';
import type { Media } from '@/api/media';
import { Dialog } from '../Dialog';
import { MediaGrid } from './MediaGrid';
import { UploadPanel } from './UploadPanel';

interface Props {
  open: boolean;
  title?: string;
  onClose: () => void;
  /** Returns false when the choice could not be used (it has said why): the picker stays open. */
  onSelect: (media: Media) => boolean | void;
}

/** The media library as a picker: choose an existing image or upload a new one. */
export function MediaPickerDialog({ open, title = 'Media Library', onClose, onSelect }: Props) {
  const [showUpload, setShowUpload] = useState(false);
  return (
    <Dialog open={open} title={title} onClose={onClose} wide>
      <div className="stack">
        <div className="row-between">
          <span className="small muted">Choose an image, or upload a new one.</span>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => setShowUpload((s) => !s)}>
            Upload New
          </button>
        </div>
        {showUpload ? <UploadPanel onUploaded={() => setShowUpload(false)} /> : null}
        <MediaGrid
          onSelect={(m) => {
            if (onSelect(m) !== false) onClose();
          }}
        />
      </div>
    </Dialog>
  );
}
