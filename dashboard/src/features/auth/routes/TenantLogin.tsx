import { useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { Link, Navigate, useLocation, useNavigate, useSearchParams, type Location } from 'react-router';
import { toast } from 'sonner';
import { useLoginMutation, type LoginReply } from '@/api/session';
import { bind, PasswordField, SubmitButton, TextField } from '@/components/form';
import { useCmsConfig } from '@/lib/configContext';
import { errorCode, errorMessage, isApiError } from '@/lib/errors';
import { useAppDispatch, useAppSelector } from '@/lib/hooks';
import { loggedIn, selectIsAuthenticated, userFromToken } from '@/lib/session';
import { AuthCard } from '../components/AuthCard';
import { TwoFactorStep } from '../components/TwoFactorStep';
import type { LoginValues } from '../schemas';

// The form's zod schema is fetched when the form is first used (it is most of a validation
// library, which the sign-in page does not need to show), and is ready by the time of a submit.
const loadSchemas = () => import('../schemas');
const resolver: Resolver<LoginValues> = async (values, context, options) =>
  (await loadSchemas()).loginResolver(values, context, options);

export function TenantLogin() {
  const { tenant, companyName } = useCmsConfig();
  const [params] = useSearchParams();
  const created = params.get('created') === '1';
  const authed = useAppSelector(selectIsAuthenticated);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: Location } | null)?.from;
  const [login, { isLoading }] = useLoginMutation();
  // The second step of a sign-in with two-factor on (the login's 403 `two_factor_required`).
  const [challenge, setChallenge] = useState<string | null>(null);
  const [restartNote, setRestartNote] = useState('');
  const form = useForm<LoginValues>({ resolver, defaultValues: { email: params.get('email') ?? '', password: '' } });

  const target = from?.pathname?.startsWith('/dashboard')
    ? `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`
    : '/dashboard';

  if (authed) return <Navigate to={target} replace />;

  function signIn(reply: LoginReply) {
    const user = reply.user ?? userFromToken(reply.token);
    if (!reply.token || !user) throw new Error('Login failed');
    dispatch(loggedIn({ token: reply.token, expiresIn: reply.expiresIn, user }));
    toast.success(reply.message || 'Login successful');
    navigate(target, { replace: true });
  }

  async function onSubmit(values: LoginValues) {
    setRestartNote('');
    try {
      signIn(await login(values).unwrap());
    } catch (err) {
      if (errorCode(err) === 'two_factor_required' && isApiError(err) && err.challengeToken) {
        setChallenge(err.challengeToken);
        return;
      }
      toast.error(errorMessage(err, 'Login failed'));
    }
  }

  if (challenge) {
    return (
      <AuthCard title="Sign In" subtitle={<>Sign in to <strong>{companyName || tenant}</strong></>}>
        <TwoFactorStep
          challengeToken={challenge}
          onSignedIn={signIn}
          onRestart={(message) => {
            setChallenge(null);
            setRestartNote(message);
          }}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Sign In"
      subtitle={
        tenant ? (
          <>
            Sign in to <strong>{companyName || tenant}</strong>
            {companyName ? <span className="muted"> ({tenant})</span> : null}
          </>
        ) : (
          'Sign in to your account'
        )
      }
    >
      {created ? (
        <div className="notice notice-success" role="status">
          <strong>{companyName || tenant} was created.</strong> Sign in with the administrator account you just set up.
        </div>
      ) : null}
      {restartNote ? (
        <div className="notice notice-warning" role="status">
          {restartNote}
        </div>
      ) : null}
      <form className="stack" onSubmit={form.handleSubmit(onSubmit)} onFocus={() => void loadSchemas()} noValidate>
        <TextField label="Email" type="email" autoComplete="email" {...bind(form, 'email')} />
        <PasswordField
          label="Password"
          autoComplete="current-password"
          {...bind(form, 'password')}
          aside={
            <Link to="/forgot-password" className="link-small">
              Forgot password?
            </Link>
          }
        />
        <SubmitButton busy={isLoading} busyLabel="Signing in" block>
          Sign In
        </SubmitButton>
        <Link to="/register" className="btn btn-secondary btn-block">
          Create New Account
        </Link>
      </form>
    </AuthCard>
  );
}
