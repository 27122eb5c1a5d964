import type { ReactNode } from 'react';
import { Dialog } from './Dialog';
import { Spinner } from './Spinner';

interface ConfirmProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel?: string;
  /** The confirm button's colour: danger (default) for what removes or cannot be undone. */
  tone?: 'danger' | 'primary';
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A dialog asking to confirm a step: Cancel, and the `confirmLabel` button (danger unless `tone`). */
export function ConfirmDialog({ open, title, children, confirmLabel = 'Delete', tone = 'danger', busy, onConfirm, onCancel }: ConfirmProps) {
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onCancel}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button type="button" className={`btn btn-${tone}`} onClick={onConfirm} disabled={busy}>
            {busy ? <Spinner small label="Working" /> : null}
            {confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
