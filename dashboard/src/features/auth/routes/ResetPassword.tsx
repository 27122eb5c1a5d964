import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { PasswordInput } from '@/components/PasswordInput';
import { Field, LoadingState, Spinner } from '@/components/ui';
import { useCheckResetLinkMutation, useResetPasswordMutation, type ResetLinkReply } from '@/api/session';
import { errorMessage } from '@/lib/errors';
import { AuthCard } from '../components/AuthCard';
import { resetPasswordResolver, type ResetPasswordValues } from '../schemas';

const INVALID = 'This password reset link is invalid or has expired. Please ask for a new one.';

/** The page an emailed reset link opens: checks the link, then sets the new password. */
export function ResetPassword() {
  const [params] = useSearchParams();
  const uid = params.get('uid') ?? '';
  const token = params.get('token') ?? '';
  const link = useMemo(() => ({ uid, token }), [uid, token]);
  const navigate = useNavigate();
  const [check] = useCheckResetLinkMutation();
  const [reset, { isLoading }] = useResetPasswordMutation();
  const [state, setState] = useState<{ account?: ResetLinkReply; error?: string }>({});
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ResetPasswordValues>({ resolver: resetPasswordResolver, defaultValues: { password: '', confirm: '' } });

  useEffect(() => {
    if (!link.uid || !link.token) {
      setState({ error: INVALID });
      return;
    }
    check(link)
      .unwrap()
      .then((account) => setState({ account }))
      .catch((err: unknown) => setState({ error: errorMessage(err, INVALID) }));
  }, [check, link]);

  async function onSubmit(values: ResetPasswordValues) {
    try {
      const reply = await reset({ ...link, password: values.password }).unwrap();
      toast.success(reply.message);
      navigate('/login', { replace: true });
    } catch (err) {
      toast.error(errorMessage(err, 'Could not change the password. Please try again.'));
    }
  }

  if (!state.account && !state.error) {
    return (
      <AuthCard title="Choose a new password">
        <LoadingState label="Checking the link..." />
      </AuthCard>
    );
  }
  if (state.error) {
    return (
      <AuthCard title="Choose a new password">
        <div className="stack">
          <p role="alert">{state.error}</p>
          <Link to="/forgot-password" className="btn btn-primary btn-block">
            Ask for a new link
          </Link>
          <Link to="/login" className="btn btn-secondary btn-block">
            Back to sign in
          </Link>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password" subtitle={<>For <strong>{state.account?.email}</strong></>}>
      <form className="stack" onSubmit={handleSubmit(onSubmit)} noValidate>
        <Field label="New password" htmlFor="password" error={errors.password?.message} hint="At least 8 characters.">
          <PasswordInput id="password" autoComplete="new-password" aria-invalid={!!errors.password} {...register('password')} />
        </Field>
        <Field label="Repeat the new password" htmlFor="confirm" error={errors.confirm?.message}>
          <PasswordInput id="confirm" autoComplete="new-password" aria-invalid={!!errors.confirm} {...register('confirm')} />
        </Field>
        <p className="muted" style={{ margin: 0 }}>
          Every other session of this account is signed out when the password changes.
        </p>
        <button type="submit" className="btn btn-primary btn-block" disabled={isLoading}>
          {isLoading ? <Spinner small label="Saving" /> : null}
          Set new password
        </button>
      </form>
    </AuthCard>
  );
}
