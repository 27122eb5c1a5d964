import { toast } from 'sonner';
import { useCancelSendMutation, type NewsletterSend } from '@/api/newsletters';
import { Dialog } from '../Dialog';
import { Spinner } from '../Spinner';
import { toastError } from '../notify';

/** Cancel a send waiting for its post's publication (the only kind that can be stopped). */
export function CancelSendDialog({ send, onClose }: { send: NewsletterSend | null; onClose: () => void }) {
  const [cancel, { isLoading }] = useCancelSendMutation();
  async function confirm() {
    if (!send) return;
    try {
      const reply = await cancel(send.id).unwrap();
      toast.success(reply.message || 'The send is cancelled');
    } catch (err) {
      toastError(err, 'Could not cancel the send');
    } finally {
      onClose();
    }
  }
  return (
    <Dialog
      open={!!send}
      title="Cancel this send?"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={isLoading}>
            Keep it
          </button>
          <button type="button" className="btn btn-danger" onClick={() => void confirm()} disabled={isLoading}>
            {isLoading ? <Spinner small label="Cancelling" /> : null}
            Cancel the send
          </button>
        </>
      }
    >
      <p style={{ margin: 0 }}>
        <strong className="break">{send?.newsletter.name}</strong> will not email this post when it publishes. You can send it again
        later.
      </p>
    </Dialog>
  );
}
