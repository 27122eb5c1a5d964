import { useState } from 'react';
import { useTwoFactorState } from '@/api/session';
import { useGetTwoFactorQuery, type TwoFactorSetup, type TwoFactorStatus } from '@/api/twoFactor';
import { QueryState } from '@/components/QueryState';
import { ConfirmSetupForm } from './twoFactor/ConfirmSetupForm';
import { RecoveryCodes } from './twoFactor/RecoveryCodes';
import { TwoFactorOff } from './twoFactor/TwoFactorOff';
import { TwoFactorOn } from './twoFactor/TwoFactorOn';

/** The account page's "Two-factor sign-in": set up (QR code, manual key, a code to confirm), the
 *  recovery codes shown once (copy, download), new recovery codes, turning it off. */
export function TwoFactorSection({ username }: { username: string }) {
  const status = useGetTwoFactorQuery();
  const { setupRequired } = useTwoFactorState();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  /** What the section shows once the status is known. */
  function content(data: TwoFactorStatus) {
    if (codes) return <RecoveryCodes codes={codes} username={username} onDone={() => setCodes(null)} />;
    if (setup && !data.enabled) {
      return (
        <ConfirmSetupForm
          setup={setup}
          onCancel={() => setSetup(null)}
          onEnabled={(recoveryCodes) => {
            setSetup(null);
            setCodes(recoveryCodes);
          }}
        />
      );
    }
    if (!data.enabled) return <TwoFactorOff onStarted={setSetup} />;
    return <TwoFactorOn status={data} onNewCodes={setCodes} />;
  }

  return (
    <section id="two-factor" className="card card-body stack" style={{ maxWidth: 640, marginTop: 16 }} aria-labelledby="two-factor-heading">
      <h2 id="two-factor-heading" className="h-sub">
        Two-factor sign-in
      </h2>
      {setupRequired ? (
        <div className="notice notice-warning" role="alert">
          Your company requires two-factor sign-in. Set it up here to continue using the dashboard: the other screens
          open once it is on.
        </div>
      ) : null}
      <QueryState query={status} compact loading="Loading two-factor sign-in" error="Failed to load two-factor sign-in">
        {content}
      </QueryState>
    </section>
  );
}
