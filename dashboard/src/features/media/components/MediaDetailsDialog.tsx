import { useState } from 'react';
import { Copy, Download, ExternalLink, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { mediaDeleteError, mediaThumbnail, mediaUrl, useDeleteMediaMutation, type Media } from '@/api/media';
import { useCapabilities } from '@/api/session';
import { Dialog } from '@/components/Dialog';
import { toastFailure } from '@/components/notify';
import { Spinner } from '@/components/Spinner';
import { copyText } from '@/lib/clipboard';
import { formatDateTime, formatFileSize } from '@/lib/format';
import { useAppSelector } from '@/lib/hooks';
import { selectUser } from '@/lib/session';
import { AltTextForm } from './AltTextForm';

export function MediaDetailsDialog({ media, onClose }: { media: Media | null; onClose: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [deleteMedia, { isLoading }] = useDeleteMediaMutation();
  const { capabilities } = useCapabilities();
  const me = useAppSelector(selectUser);
  if (!media) return null;
  // Any file with media.manage; one's own uploads with media.edit_own (as the server decides):
  // its alt text and its deletion.
  const own = !!me && media.uploadedBy?.username === me.username;
  const canChange = capabilities.has('media.manage') || (own && capabilities.has('media.edit_own'));
  const url = mediaUrl(media);
  const preview = media.renditions?.medium || media.renditions?.large || mediaThumbnail(media);

  async function remove() {
    if (!media) return;
    try {
      const reply = await deleteMedia(media.id).unwrap();
      toast.success(reply?.message || 'Media deleted successfully');
      onClose();
    } catch (err) {
      toastFailure(err, mediaDeleteError(err));
      setConfirming(false);
    }
  }

  return (
    <Dialog open title="Media Details" onClose={onClose} wide>
      <div className="grid-2" style={{ alignItems: 'start' }}>
        {preview ? (
          <img src={preview} alt={media.altText || media.fileName} style={{ width: '100%', borderRadius: 8, border: '1px solid var(--border)' }} />
        ) : (
          <div className="state">No preview</div>
        )}
        <div className="stack">
          <dl className="stack small" style={{ margin: 0, gap: 8 }}>
            <div>
              <dt className="muted">Name</dt>
              <dd style={{ margin: 0, overflowWrap: 'anywhere' }}>{media.fileName}</dd>
            </div>
            <div>
              <dt className="muted">Type</dt>
              <dd style={{ margin: 0 }}>{media.fileType}</dd>
            </div>
            <div>
              <dt className="muted">Size</dt>
              <dd style={{ margin: 0 }}>{formatFileSize(media.fileSize)}</dd>
            </div>
            <div>
              <dt className="muted">Uploaded by</dt>
              <dd style={{ margin: 0 }}>{media.uploadedBy?.username ?? 'Unknown'}</dd>
            </div>
            <div>
              <dt className="muted">Uploaded</dt>
              <dd style={{ margin: 0 }}>{formatDateTime(media.uploadedAt || media.createdAt)}</dd>
            </div>
          </dl>
          <AltTextForm key={media.id} media={media} canEdit={canChange} />
          <div className="field">
            <label htmlFor="media-url">URL</label>
            <div className="row">
              <input id="media-url" className="input" readOnly value={url} onFocus={(e) => e.target.select()} />
              <button type="button" className="btn btn-secondary btn-icon" aria-label="Copy URL" onClick={() => copyText(url)}>
                <Copy size={16} />
              </button>
            </div>
          </div>
          <div className="row wrap">
            <a className="btn btn-secondary btn-sm" href={url} target="_blank" rel="noreferrer">
              <ExternalLink size={14} /> Open in New Tab
            </a>
            <a className="btn btn-secondary btn-sm" href={url} download={media.fileName}>
              <Download size={14} /> Download
            </a>
            {!canChange ? null : confirming ? (
              <span className="row">
                <span className="small">Delete this file permanently?</span>
                <button type="button" className="btn btn-secondary btn-sm" onClick={() => setConfirming(false)} disabled={isLoading}>
                  Cancel
                </button>
                <button type="button" className="btn btn-danger btn-sm" onClick={remove} disabled={isLoading}>
                  {isLoading ? <Spinner small /> : null} Confirm Delete
                </button>
              </span>
            ) : (
              <button type="button" className="btn btn-danger btn-sm" onClick={() => setConfirming(true)}>
                <Trash2 size={14} /> Delete
              </button>
            )}
          </div>
        </div>
      </div>
    </Dialog>
  );
}
