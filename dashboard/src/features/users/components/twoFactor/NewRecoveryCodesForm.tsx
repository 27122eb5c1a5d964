import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { useRegenerateRecoveryCodesMutation } from '@/api/twoFactor';
import { Field } from '@/components/Field';
import { errorMessage, fieldMessage } from '@/lib/errors';
import { FormButtons } from './FormButtons';

/** "New recovery codes": a code from the app makes new ones (the current ones stop working). */
export function NewRecoveryCodesForm({ onCancel, onDone }: { onCancel: () => void; onDone: (codes: string[]) => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [regenerate, { isLoading }] = useRegenerateRecoveryCodesMutation();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!code.trim()) return setError('Enter the 6-digit code from your authenticator app');
    setError(undefined);
    try {
      onDone((await regenerate({ code: code.trim() }).unwrap()).recoveryCodes);
      toast.success('New recovery codes. The previous ones no longer work.');
    } catch (err) {
      setError(fieldMessage(err, 'code') ?? errorMessage(err, 'Could not make new codes. Please try again.'));
    }
  }

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <Field label="Code from your authenticator app" htmlFor="regenerate-code" error={error} hint="Your current recovery codes stop working.">
        <input id="regenerate-code" className="input input-code" autoComplete="one-time-code" inputMode="numeric" aria-invalid={!!error} value={code} onChange={(e) => setCode(e.target.value)} />
      </Field>
      <FormButtons busy={isLoading} busyLabel="Making codes" onCancel={onCancel}>
        Make new codes
      </FormButtons>
    </form>
  );
}
