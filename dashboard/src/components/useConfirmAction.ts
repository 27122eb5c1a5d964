import { useState } from 'react';
import { toast } from 'sonner';
import { toastFailure } from './notify';

interface Options<T, R> {
  /** The success toast when the reply has no message. */
  done: string;
  /** The failure toast. */
  failed: (error: unknown) => string;
  /** After a success (the reply and the item), before the dialog closes. */
  then?: (reply: R, item: T) => void;
}

/**
 * An action on one item that asks first (delete, revoke, rotate): `ask(item)` opens the
 * confirmation; confirming runs `run(item)`, toasts the server's message (or `done`) or the
 * failure, and closes the dialog either way. Spread `dialog` into a ConfirmDialog.
 */
export function useConfirmAction<T, R extends { message?: string } | undefined>(
  run: (item: T) => Promise<R>,
  { done, failed, then }: Options<T, R>,
) {
  const [item, setItem] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);

  async function onConfirm() {
    if (item === null) return;
    setBusy(true);
    try {
      const reply = await run(item);
      toast.success(reply?.message || done);
      then?.(reply, item);
    } catch (error) {
      toastFailure(error, failed(error));
    } finally {
      setBusy(false);
      setItem(null);
    }
  }

  return { item, ask: setItem, dialog: { open: item !== null, busy, onCancel: () => setItem(null), onConfirm } };
}
