import { useCallback } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { useCheckResetLinkMutation, useResetPasswordMutation } from '@/api/session';
import { bind, PasswordField, SubmitButton } from '@/components/form';
import { errorMessage } from '@/lib/errors';
import { EmailedLinkPage, useLinkCheck } from '../components/EmailedLink';
import { resetPasswordResolver, type ResetPasswordValues } from '../schemas';

const INVALID = 'This password reset link is invalid or has expired. Please ask for a new one.';

/** The page an emailed reset link opens: checks the link, then sets the new password. */
export function ResetPassword() {
  const [params] = useSearchParams();
  const uid = params.get('uid') ?? '';
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const [check] = useCheckResetLinkMutation();
  const [reset, { isLoading }] = useResetPasswordMutation();
  const checkLink = useCallback(() => check({ uid, token }).unwrap(), [check, uid, token]);
  const link = useLinkCheck(uid && token ? checkLink : null, INVALID);
  const form = useForm<ResetPasswordValues>({ resolver: resetPasswordResolver, defaultValues: { password: '', confirm: '' } });

  async function onSubmit(values: ResetPasswordValues) {
    try {
      const reply = await reset({ uid, token, password: values.password }).unwrap();
      toast.success(reply.message);
      navigate('/login', { replace: true });
    } catch (err) {
      toast.error(errorMessage(err, 'Could not change the password. Please try again.'));
    }
  }

  return (
    <EmailedLinkPage
      title="Choose a new password"
      link={link}
      checking="Checking the link..."
      ways={
        <>
          <Link to="/forgot-password" className="btn btn-primary btn-block">
            Ask for a new link
          </Link>
          <Link to="/login" className="btn btn-secondary btn-block">
            Back to sign in
          </Link>
        </>
      }
      subtitle={(account) => (
        <>
          For <strong>{account.email}</strong>
        </>
      )}
    >
      {() => (
        <form className="stack" onSubmit={form.handleSubmit(onSubmit)} noValidate>
          <PasswordField label="New password" hint="At least 8 characters." autoComplete="new-password" {...bind(form, 'password')} />
          <PasswordField label="Repeat the new password" autoComplete="new-password" {...bind(form, 'confirm')} />
          <p className="muted" style={{ margin: 0 }}>
            Every other session of this account is signed out when the password changes.
          </p>
          <SubmitButton busy={isLoading} busyLabel="Saving" block>
            Set new password
          </SubmitButton>
        </form>
      )}
    </EmailedLinkPage>
  );
}
