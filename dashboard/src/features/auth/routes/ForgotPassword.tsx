import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Field, Spinner } from '@/components/ui';
import { useForgotPasswordMutation } from '@/api/session';
import { useCmsConfig } from '@/lib/configContext';
import { errorMessage } from '@/lib/errors';
import { AuthCard } from '../components/AuthCard';
import { forgotPasswordResolver, type ForgotPasswordValues } from '../schemas';

/** "Forgot password?": asks for the email; the reply is the same whether or not it has an account. */
export function ForgotPassword() {
  const { tenant, companyName } = useCmsConfig();
  const [sent, setSent] = useState<string | null>(null);
  const [forgot, { isLoading }] = useForgotPasswordMutation();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ForgotPasswordValues>({ resolver: forgotPasswordResolver, defaultValues: { email: '' } });

  async function onSubmit(values: ForgotPasswordValues) {
    try {
      const reply = await forgot(values).unwrap();
      setSent(reply.message);
    } catch (err) {
      toast.error(errorMessage(err, 'Could not send the email. Please try again.'));
    }
  }

  return (
    <AuthCard title="Forgot your password?" subtitle={<>Get a link to choose a new one for <strong>{companyName || tenant}</strong></>}>
      {sent ? (
        <div className="stack">
          <div className="notice notice-success" role="status">
            {sent}
          </div>
          <Link to="/login" className="btn btn-secondary btn-block">
            Back to sign in
          </Link>
        </div>
      ) : (
        <form className="stack" onSubmit={handleSubmit(onSubmit)} noValidate>
          <Field label="Email" htmlFor="email" error={errors.email?.message} hint="The address you sign in with.">
            <input id="email" type="email" className="input" autoComplete="email" aria-invalid={!!errors.email} {...register('email')} />
          </Field>
          <button type="submit" className="btn btn-primary btn-block" disabled={isLoading}>
            {isLoading ? <Spinner small label="Sending" /> : null}
            Email me a link
          </button>
          <Link to="/login" className="btn btn-secondary btn-block">
            Back to sign in
          </Link>
        </form>
      )}
    </AuthCard>
  );
}
