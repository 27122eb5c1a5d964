import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { useConfirmTwoFactorMutation, type TwoFactorSetup } from '@/api/twoFactor';
import { Field } from '@/components/Field';
import { errorMessage, fieldMessage } from '@/lib/errors';
import { AuthenticatorKey } from './AuthenticatorKey';
import { FormButtons } from './FormButtons';

interface Props {
  setup: TwoFactorSetup;
  onCancel: () => void;
  onEnabled: (codes: string[]) => void;
}

/** Setting up: the authenticator key, then the app's first code to turn two-factor sign-in on. */
export function ConfirmSetupForm({ setup, onCancel, onEnabled }: Props) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [confirm, { isLoading }] = useConfirmTwoFactorMutation();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.replace(/\s/g, ''))) {
      setError('Enter the 6-digit code your app shows');
      return;
    }
    setError(undefined);
    try {
      const reply = await confirm({ code: code.replace(/\s/g, '') }).unwrap();
      toast.success('Two-factor sign-in is on');
      onEnabled(reply.recoveryCodes);
    } catch (err) {
      setError(fieldMessage(err, 'code') ?? errorMessage(err, 'Could not check the code. Please try again.'));
    }
  }

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <AuthenticatorKey setup={setup} />
      <Field label="Code from the app" htmlFor="setup-code" error={error}>
        <input
          id="setup-code"
          className="input input-code"
          autoComplete="one-time-code"
          inputMode="numeric"
          pattern="[0-9]*"
          maxLength={7}
          aria-invalid={!!error}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </Field>
      <FormButtons busy={isLoading} busyLabel="Checking the code" onCancel={onCancel}>
        Turn on
      </FormButtons>
    </form>
  );
}
