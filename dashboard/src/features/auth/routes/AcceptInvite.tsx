import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { PasswordInput } from '@/components/PasswordInput';
import { Field, LoadingState, Spinner } from '@/components/ui';
import { useAcceptInvitationMutation, useCheckInvitationMutation, type InvitationCheck } from '@/api/invitations';
import { useCmsConfig } from '@/lib/configContext';
import { errorMessage, isApiError } from '@/lib/errors';
import { useAppDispatch } from '@/lib/hooks';
import { loggedIn } from '@/lib/session';
import { AuthCard } from '../components/AuthCard';
import { acceptInviteResolver, type AcceptInviteValues } from '../schemas';
import { userFromToken } from '@/lib/session';

const INVALID = 'This invitation link is invalid, was already used or has expired. Ask your administrator for a new one.';

/** The page an invitation email opens: the invitee chooses a username and password and is signed in. */
export function AcceptInvite() {
  const { tenant, companyName } = useCmsConfig();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [check] = useCheckInvitationMutation();
  const [accept, { isLoading }] = useAcceptInvitationMutation();
  const [state, setState] = useState<{ invitation?: InvitationCheck; error?: string }>({});
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<AcceptInviteValues>({ resolver: acceptInviteResolver, defaultValues: { username: '', password: '' } });

  useEffect(() => {
    if (!token) {
      setState({ error: INVALID });
      return;
    }
    check({ token })
      .unwrap()
      .then((invitation) => setState({ invitation }))
      .catch((err: unknown) => setState({ error: errorMessage(err, INVALID) }));
  }, [token, check]);

  async function onSubmit(values: AcceptInviteValues) {
    try {
      const reply = await accept({ token, ...values }).unwrap();
      const user = reply.user ?? userFromToken(reply.token);
      if (!user) throw new Error('Sign-in failed');
      dispatch(loggedIn({ token: reply.token, expiresIn: reply.expiresIn, user }));
      toast.success(reply.message || 'Welcome!');
      navigate('/dashboard', { replace: true });
    } catch (err) {
      const fieldErrors = isApiError(err) ? (err.errors ?? []) : [];
      const known = fieldErrors.filter((e) => e.field === 'username' || e.field === 'password');
      known.forEach((e) => setError(e.field as keyof AcceptInviteValues, { message: e.message }));
      if (!known.length) toast.error(errorMessage(err, 'Could not create your account. Please try again.'));
    }
  }

  const title = `Join ${companyName || tenant}`;
  if (!state.invitation && !state.error) {
    return (
      <AuthCard title={title}>
        <LoadingState label="Checking the invitation..." />
      </AuthCard>
    );
  }
  if (state.error) {
    return (
      <AuthCard title={title}>
        <div className="stack">
          <p role="alert">{state.error}</p>
          <Link to="/login" className="btn btn-secondary btn-block">
            Go to sign in
          </Link>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title={title}
      subtitle={
        <>
          You were invited as <strong>{state.invitation?.role}</strong> with <strong>{state.invitation?.email}</strong>
        </>
      }
    >
      <form className="stack" onSubmit={handleSubmit(onSubmit)} noValidate>
        <Field label="Username" htmlFor="username" error={errors.username?.message}>
          <input id="username" className="input" autoComplete="username" aria-invalid={!!errors.username} {...register('username')} />
        </Field>
        <Field label="Password" htmlFor="password" error={errors.password?.message} hint="At least 8 characters.">
          <PasswordInput id="password" autoComplete="new-password" aria-invalid={!!errors.password} {...register('password')} />
        </Field>
        <button type="submit" className="btn btn-primary btn-block" disabled={isLoading}>
          {isLoading ? <Spinner small label="Creating your account" /> : null}
          Create my account
        </button>
      </form>
    </AuthCard>
  );
}
