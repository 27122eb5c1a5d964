import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { useKind } from '../../kinds';

/** Leaving the form with unsaved changes asks first: inside the app (react-router's blocker) and
 * when the tab is closed or reloaded (the browser's own beforeunload prompt). `when` is read at
 * the moment of leaving. */
export function LeaveGuard({ when }: { when: () => boolean }) {
  const kind = useKind();
  const blocker = useBlocker(({ currentLocation, nextLocation }) =>
    currentLocation.pathname !== nextLocation.pathname && when(),
  );
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!when()) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [when]);
  return (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      title="Leave without saving?"
      confirmLabel="Leave"
      onCancel={() => blocker.reset?.()}
      onConfirm={() => blocker.proceed?.()}
    >
      <p style={{ margin: 0 }}>
        Your changes are not saved to the {kind.noun}. A draft copy is kept and offered when you open the {kind.noun}{' '}
        again.
      </p>
    </ConfirmDialog>
  );
}
