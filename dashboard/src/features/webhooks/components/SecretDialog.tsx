import { Copy } from 'lucide-react';
import { Dialog } from '@/components/Dialog';
import { copyText } from '@/lib/clipboard';

/** The signing secret, shown once (after create or rotate). */
export function SecretDialog({ secret, onClose }: { secret: string | null; onClose: () => void }) {
  return (
    <Dialog
      open={!!secret}
      title="Signing secret"
      onClose={onClose}
      footer={
        <button type="button" className="btn btn-primary" onClick={onClose}>
          Done
        </button>
      }
    >
      <p className="notice notice-warning" style={{ marginTop: 0 }}>
        Copy this secret now: you won't see it again. Your receiver checks each delivery's Webhook-Signature with it.
      </p>
      <div className="row" style={{ alignItems: 'stretch' }}>
        <input className="input mono" readOnly value={secret ?? ''} aria-label="Signing secret" onFocus={(e) => e.target.select()} />
        <button type="button" className="btn btn-secondary" onClick={() => secret && copyText(secret)}>
          <Copy size={16} aria-hidden="true" />
          Copy
        </button>
      </div>
    </Dialog>
  );
}
