import { useEffect } from 'react';
import { toast } from 'sonner';
import { api } from '@/lib/api';
import { SESSION_EXPIRED_MESSAGE } from '@/lib/errors';
import { useAppDispatch, useAppSelector } from '@/lib/hooks';
import { loggedOut } from '@/lib/session';

/** Logs out with the session-expired toast when the stored expiry passes. */
export function SessionWatcher() {
  const expiresAt = useAppSelector((s) => s.session.expiresAt);
  const token = useAppSelector((s) => s.session.token);
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (!token || !expiresAt) return;
    const expire = () => {
      dispatch(loggedOut());
      dispatch(api.util.resetApiState());
      toast.error(SESSION_EXPIRED_MESSAGE, { id: 'session-expired' });
    };
    const delay = expiresAt - Date.now();
    if (delay <= 0) {
      expire();
      return;
    }
    // setTimeout cannot wait longer than ~24.8 days.
    const id = setTimeout(expire, Math.min(delay, 2_147_000_000));
    return () => clearTimeout(id);
  }, [token, expiresAt, dispatch]);
  return null;
}
