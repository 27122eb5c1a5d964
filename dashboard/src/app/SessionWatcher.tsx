import { useEffect } from 'react';
import { expireSession } from '@/lib/api';
import { useAppDispatch, useAppSelector } from '@/lib/hooks';

/** Logs out with the session-expired toast when the stored expiry passes. */
export function SessionWatcher() {
  const expiresAt = useAppSelector((s) => s.session.expiresAt);
  const token = useAppSelector((s) => s.session.token);
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (!token || !expiresAt) return;
    const expire = () => expireSession(dispatch);
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
