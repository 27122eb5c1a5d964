import { useState } from 'react';
import type { TwoFactorStatus } from '@/api/twoFactor';
import { NewRecoveryCodesForm } from './NewRecoveryCodesForm';
import { TurnOffForm } from './TurnOffForm';

type Mode = 'idle' | 'regenerate' | 'disable';

/** Two-factor sign-in is on: since when, the recovery codes left, then New recovery codes and
 *  Turn off (not offered while the company requires it), each opening its form. */
export function TwoFactorOn({ status, onNewCodes }: { status: TwoFactorStatus; onNewCodes: (codes: string[]) => void }) {
  const [mode, setMode] = useState<Mode>('idle');
  return (
    <div className="stack">
      <p style={{ margin: 0 }}>
        <strong>On</strong>
        {status.enabledAt ? <> since {new Date(status.enabledAt).toLocaleDateString()}</> : null}. You have{' '}
        {status.recoveryCodesLeft} recovery code{status.recoveryCodesLeft === 1 ? '' : 's'} left.
      </p>
      {status.recoveryCodesLeft < 3 ? (
        <div className="notice notice-warning" role="status">
          You are running out of recovery codes. Make new ones.
        </div>
      ) : null}
      {mode === 'idle' ? (
        <div className="row" style={{ flexWrap: 'wrap' }}>
          <button type="button" className="btn btn-secondary" onClick={() => setMode('regenerate')}>
            New recovery codes
          </button>
          {status.required ? null : (
            <button type="button" className="btn btn-danger" onClick={() => setMode('disable')}>
              Turn off
            </button>
          )}
        </div>
      ) : mode === 'regenerate' ? (
        <NewRecoveryCodesForm
          onCancel={() => setMode('idle')}
          onDone={(recoveryCodes) => {
            setMode('idle');
            onNewCodes(recoveryCodes);
          }}
        />
      ) : (
        <TurnOffForm onCancel={() => setMode('idle')} onDone={() => setMode('idle')} />
      )}
      {status.required ? <p className="muted" style={{ margin: 0 }}>Your company requires two-factor sign-in.</p> : null}
    </div>
  );
}
