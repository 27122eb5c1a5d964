import { useState } from 'react';
import { toast } from 'sonner';
import { useReturnReviewMutation, type Post } from '@/api/posts';
import { Dialog } from '@/components/Dialog';
import { Field } from '@/components/Field';
import { isApiError } from '@/lib/errors';
import { formatDate } from '@/lib/format';
import { useKind } from '../../kinds';

/** The post's review state: the editor's note to the writer, or (editors) "send back". */
export function ReviewBanner({ post, canReview }: { post: Post; canReview: boolean }) {
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState('');
  const [error, setError] = useState('');
  const [returnReview, { isLoading }] = useReturnReviewMutation();
  const kind = useKind();
  if (!post.reviewRequestedAt && !post.reviewNote) return null;

  async function sendBack() {
    if (!note.trim()) {
      setError('Please write a note for the writer');
      return;
    }
    try {
      const reply = await returnReview({ id: post.id, note: note.trim(), kind: kind.api }).unwrap();
      toast.success(reply?.message || `${kind.Noun} sent back to the writer`);
      setOpen(false);
    } catch (err) {
      setError(isApiError(err) ? err.message : `Could not send the ${kind.noun} back`);
    }
  }

  return (
    <div className="notice" role="status" style={{ marginBottom: 16 }}>
      {post.reviewRequestedAt ? (
        <div className="row wrap" style={{ justifyContent: 'space-between', gap: 8 }}>
          <span>Waiting for review since {formatDate(post.reviewRequestedAt)}.</span>
          {canReview ? (
            <button type="button" className="btn btn-secondary" onClick={() => setOpen(true)}>
              Send back
            </button>
          ) : null}
        </div>
      ) : (
        <span>
          Sent back from review: <strong>{post.reviewNote}</strong>
        </span>
      )}
      <Dialog
        open={open}
        title="Send back to the writer"
        onClose={() => setOpen(false)}
        footer={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button type="button" className="btn btn-primary" disabled={isLoading} onClick={() => void sendBack()}>
              Send back
            </button>
          </>
        }
      >
          <Field label="Note for the writer" htmlFor="review-note" error={error || undefined}>
            <textarea
              id="review-note"
              className="textarea"
              value={note}
              aria-invalid={!!error}
              onChange={(e) => {
                setNote(e.target.value);
                setError('');
              }}
            />
          </Field>
      </Dialog>
    </div>
  );
}
