import { useCallback } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { useAcceptInvitationMutation, useCheckInvitationMutation } from '@/api/invitations';
import { bind, PasswordField, SubmitButton, TextField } from '@/components/form';
import { useCmsConfig } from '@/lib/configContext';
import { errorMessage, isApiError } from '@/lib/errors';
import { useAppDispatch } from '@/lib/hooks';
import { loggedIn, userFromToken } from '@/lib/session';
import { EmailedLinkPage, useLinkCheck } from '../components/EmailedLink';
import { acceptInviteResolver, type AcceptInviteValues } from '../schemas';

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
  const checkLink = useCallback(() => check({ token }).unwrap(), [check, token]);
  const link = useLinkCheck(token ? checkLink : null, INVALID);
  const form = useForm<AcceptInviteValues>({ resolver: acceptInviteResolver, defaultValues: { username: '', password: '' } });
  const { handleSubmit, setError } = form;

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

  return (
    <EmailedLinkPage
      title={`Join ${companyName || tenant}`}
      link={link}
      checking="Checking the invitation..."
      ways={
        <Link to="/login" className="btn btn-secondary btn-block">
          Go to sign in
        </Link>
      }
      subtitle={(invitation) => (
        <>
          You were invited as <strong>{invitation.role}</strong> with <strong>{invitation.email}</strong>
        </>
      )}
    >
      {() => (
        <form className="stack" onSubmit={handleSubmit(onSubmit)} noValidate>
          <TextField label="Username" autoComplete="username" {...bind(form, 'username')} />
          <PasswordField label="Password" hint="At least 8 characters." autoComplete="new-password" {...bind(form, 'password')} />
          <SubmitButton busy={isLoading} busyLabel="Creating your account" block>
            Create my account
          </SubmitButton>
        </form>
      )}
    </EmailedLinkPage>
  );
}
