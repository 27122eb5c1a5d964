import { useSetupTwoFactorMutation, type TwoFactorSetup } from '@/api/twoFactor';
import { Spinner } from '@/components/Spinner';
import { toastError } from '@/components/notify';

/** Two-factor sign-in is off: what it is, and "Set up two-factor sign-in" (which fetches a new key). */
export function TwoFactorOff({ onStarted }: { onStarted: (setup: TwoFactorSetup) => void }) {
  const [startSetup, { isLoading: starting }] = useSetupTwoFactorMutation();

  async function begin() {
    try {
      onStarted(await startSetup().unwrap());
    } catch (err) {
      toastError(err, 'Could not start the setup. Please try again.');
    }
  }

  return (
    <div className="stack">
      <p style={{ margin: 0 }}>
        <strong>Off.</strong> Add a second step to your sign-in: a 6-digit code from an authenticator app on your
        phone (Google Authenticator, Microsoft Authenticator, 1Password, ...).
      </p>
      <div>
        <button type="button" className="btn btn-primary" onClick={() => void begin()} disabled={starting}>
          {starting ? <Spinner small label="Starting" /> : null}
          Set up two-factor sign-in
        </button>
      </div>
    </div>
  );
}
