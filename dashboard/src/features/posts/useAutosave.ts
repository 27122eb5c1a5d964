import { useCallback, useEffect, useRef, useState } from 'react';
import { usePutAutosaveMutation } from '@/api/autosaves';
import { rowPath, type ContentRef } from '@/api/posts';
import { API_BASE } from '@/lib/api';
import { useAppSelector } from '@/lib/hooks';

/** Milliseconds after the last keystroke before the copy is saved. */
export const AUTOSAVE_DELAY_MS = 2000;

export type AutosaveState =
  | { kind: 'idle' }
  | { kind: 'pending' }
  | { kind: 'saving' }
  | { kind: 'saved'; at: string }
  | { kind: 'failed' };

interface Options {
  /** The post's (page's) id, or `new` for one not created yet. */
  target: ContentRef;
  /** The post's updatedAt the form was opened from. */
  baseUpdatedAt?: string | null;
  enabled: boolean;
}

/**
 * Keeps an unsaved copy of the form on the server a few seconds after typing stops, and when the
 * page is left or hidden (a keepalive request, which outlives the page). The post itself is never
 * changed. `changed(values)` is called on each edit; `cancel()` drops what is pending (the post is
 * being saved, which clears the copy on the server).
 */
export function useAutosave<V>({ target, baseUpdatedAt, enabled }: Options) {
  const [state, setState] = useState<AutosaveState>({ kind: 'idle' });
  const [putAutosave] = usePutAutosaveMutation();
  const token = useAppSelector((s) => s.session.token);
  const pending = useRef<V | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const stopped = useRef(false);

  const flush = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const values = pending.current;
    if (values === null || stopped.current) return;
    pending.current = null;
    setState({ kind: 'saving' });
    try {
      const saved = await putAutosave({ id: target, fields: values, baseUpdatedAt }).unwrap();
      if (!stopped.current) setState({ kind: 'saved', at: saved?.updatedAt ?? new Date().toISOString() });
    } catch {
      if (!stopped.current) setState({ kind: 'failed' });
    }
  }, [putAutosave, target, baseUpdatedAt]);

  const changed = useCallback(
    (values: V) => {
      if (!enabled || stopped.current) return;
      pending.current = values;
      setState({ kind: 'pending' });
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), AUTOSAVE_DELAY_MS);
    },
    [enabled, flush],
  );

  const cancel = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    pending.current = null;
  }, []);

  /** Stop for good (the post was saved): nothing is sent after this. */
  const stop = useCallback(() => {
    cancel();
    stopped.current = true;
  }, [cancel]);

  /** Allow saving again (a save was refused: the copy must keep up with the form). */
  const resume = useCallback(() => {
    stopped.current = false;
  }, []);

  // Leaving or hiding the page: send what is pending with keepalive (it outlives the page).
  useEffect(() => {
    if (!enabled) return undefined;
    const sendNow = () => {
      const values = pending.current;
      if (values === null || stopped.current || !token) return;
      pending.current = null;
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      void fetch(`${API_BASE}/${rowPath(target)}/autosave`, {
        method: 'PUT',
        keepalive: true,
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify({ fields: values, baseUpdatedAt: baseUpdatedAt ?? null }),
      }).catch(() => undefined);
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') sendNow();
    };
    window.addEventListener('pagehide', sendNow);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pagehide', sendNow);
      document.removeEventListener('visibilitychange', onVisibility);
      // Leaving the screen inside the app: the pending copy is saved now.
      if (pending.current !== null && !stopped.current) void flush();
    };
  }, [enabled, target, baseUpdatedAt, token, flush]);

  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  return { state, changed, cancel, stop, resume };
}

/** What the indicator says. */
export function autosaveLabel(state: AutosaveState): string {
  switch (state.kind) {
    case 'pending':
      return 'Unsaved changes';
    case 'saving':
      return 'Saving...';
    case 'saved':
      return `Saved a draft copy at ${new Date(state.at).toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit' })}`;
    case 'failed':
      return 'Could not save a draft copy';
    default:
      return '';
  }
}
