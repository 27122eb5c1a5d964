import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { useForgotPasswordMutation } from '@/api/session';
import { bind, SubmitButton, TextField } from '@/components/form';
import { useCmsConfig } from '@/lib/configContext';
import { errorMessage } from '@/lib/errors';
import { AuthCard } from '../components/AuthCard';
import { forgotPasswordResolver, type ForgotPasswordValues } from '../schemas';

/** "Forgot password?": asks for the email; the reply is the same whether or not it has an account. */
export function ForgotPassword() {
  const { tenant, companyName } = useCmsConfig();
  const [sent, setSent] = useState<string | null>(null);
  const [forgot, { isLoading }] = useForgotPasswordMutation();
  const form = useForm<ForgotPasswordValues>({ resolver: forgotPasswordResolver, defaultValues: { email: '' } });

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
        <form className="stack" onSubmit={form.handleSubmit(onSubmit)} noValidate>
          <TextField label="Email" type="email" autoComplete="email" hint="The address you sign in with." {...bind(form, 'email')} />
          <SubmitButton busy={isLoading} busyLabel="Sending" block>
            Email me a link
          </SubmitButton>
          <Link to="/login" className="btn btn-secondary btn-block">
            Back to sign in
          </Link>
        </form>
      )}
    </AuthCard>
  );
}
