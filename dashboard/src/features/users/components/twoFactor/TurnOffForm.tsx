import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { useDisableTwoFactorMutation } from '@/api/twoFactor';
import { Field } from '@/components/Field';
import { PasswordInput } from '@/components/PasswordInput';
import { toastError } from '@/components/notify';
import { fieldMessage } from '@/lib/errors';
import { FormButtons } from './FormButtons';

/** "Turn off": the password and a code from the app (or a recovery code). */
export function TurnOffForm({ onCancel, onDone }: { onCancel: () => void; onDone: () => void }) {
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ code?: string; password?: string }>({});
  const [disable, { isLoading }] = useDisableTwoFactorMutation();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const next = {
      password: password ? undefined : 'Password is required',
      code: code.trim() ? undefined : 'Enter a code from your authenticator app or a recovery code',
    };
    setErrors(next);
    if (next.password || next.code) return;
    try {
      const reply = await disable({ code: code.trim(), password }).unwrap();
      toast.success(reply.message || 'Two-factor sign-in is off.');
      onDone();
    } catch (err) {
      const byField = { code: fieldMessage(err, 'code'), password: fieldMessage(err, 'password') };
      if (byField.code || byField.password) setErrors(byField);
      else toastError(err, 'Could not turn it off. Please try again.');
    }
  }

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <Field label="Password" htmlFor="disable-password" error={errors.password}>
        <PasswordInput id="disable-password" autoComplete="current-password" aria-invalid={!!errors.password} value={password} onChange={(e) => setPassword(e.target.value)} />
      </Field>
      <Field label="Code from your authenticator app (or a recovery code)" htmlFor="disable-code" error={errors.code}>
        <input id="disable-code" className="input" autoComplete="one-time-code" aria-invalid={!!errors.code} value={code} onChange={(e) => setCode(e.target.value)} />
      </Field>
      <FormButtons busy={isLoading} busyLabel="Turning off" tone="danger" onCancel={onCancel}>
        Turn off two-factor sign-in
      </FormButtons>
    </form>
  );
}
