import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLoginTwoFactorMutation, type LoginReply } from '@/api/session';
import { TextField } from '@/components/form';
import { Spinner } from '@/components/Spinner';
import { errorCode, errorMessage, isApiError } from '@/lib/errors';

/** The code field: a recovery code ("xxxxx-xxxxx"), or the app's 6 digits. */
const RECOVERY_INPUT = { id: 'recovery-code', autoComplete: 'off', autoCapitalize: 'none', spellCheck: false, placeholder: 'xxxxx-xxxxx' };
const CODE_INPUT = {
  id: 'otp-code',
  className: 'input input-code',
  autoComplete: 'one-time-code',
  inputMode: 'numeric' as const,
  pattern: '[0-9]*',
  maxLength: 7,
  placeholder: '123456',
};

interface Props {
  challengeToken: string;
  onSignedIn: (reply: LoginReply) => void;
  /** The challenge expired or was used: back to email and password, with a message. */
  onRestart: (message: string) => void;
}

/** The sign-in's second step: a 6-digit code from the authenticator app, or a recovery code. */
export function TwoFactorStep({ challengeToken, onSignedIn, onRestart }: Props) {
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [verify, { isLoading }] = useLoginTwoFactorMutation();
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    input.current?.focus();
  }, [recovery]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const value = code.trim();
    if (!value) {
      setError(recovery ? 'Enter one of your recovery codes' : 'Enter the 6-digit code from your authenticator app');
      return;
    }
    if (!recovery && !/^\d{6}$/.test(value.replace(/\s/g, ''))) {
      setError('The code has 6 digits');
      return;
    }
    setError(null);
    try {
      onSignedIn(await verify({ challengeToken, code: value }).unwrap());
    } catch (err) {
      if (errorCode(err) === 'two_factor_challenge_invalid') {
        onRestart(errorMessage(err, 'This sign-in attempt has expired. Please sign in again.'));
        return;
      }
      setError(isApiError(err) ? err.message : 'Could not check the code. Please try again.');
      setCode('');
      input.current?.focus();
    }
  }

  function toggle() {
    setRecovery((value) => !value);
    setCode('');
    setError(null);
  }

  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-labelledby="two-factor-title">
      <h2 id="two-factor-title" className="h-sub">
        Two-factor sign-in
      </h2>
      <p className="muted" style={{ margin: 0 }}>
        {recovery
          ? 'Enter one of the recovery codes you saved when you set up two-factor sign-in. Each code works once.'
          : 'Enter the 6-digit code from your authenticator app to finish signing in.'}
      </p>
      <TextField
        ref={input}
        label={recovery ? 'Recovery code' : 'Authentication code'}
        error={error ?? undefined}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        {...(recovery ? RECOVERY_INPUT : CODE_INPUT)}
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={isLoading}>
        {isLoading ? <Spinner small label="Checking the code" /> : null}
        Verify
      </button>
      <button type="button" className="btn btn-ghost btn-block" onClick={toggle}>
        {recovery ? 'Use the code from my authenticator app' : 'Use a recovery code'}
      </button>
      <button type="button" className="btn btn-secondary btn-block" onClick={() => onRestart('')}>
        Back to sign in
      </button>
    </form>
  );
}
