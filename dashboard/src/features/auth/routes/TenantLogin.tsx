import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, Navigate, useLocation, useNavigate, type Location } from 'react-router';
import { toast } from 'sonner';
import { PasswordInput } from '@/components/PasswordInput';
import { Field, Spinner } from '@/components/ui';
import { useCmsConfig } from '@/lib/configContext';
import { errorMessage } from '@/lib/errors';
import { useAppDispatch, useAppSelector } from '@/lib/hooks';
import { loggedIn, selectIsAuthenticated } from '@/lib/session';
import { useLoginMutation, userFromToken } from '../api';
import { AuthCard } from '../components/AuthCard';
import { loginSchema, type LoginValues } from '../schemas';

export function TenantLogin() {
  const { tenant } = useCmsConfig();
  const authed = useAppSelector(selectIsAuthenticated);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: Location } | null)?.from;
  const [login, { isLoading }] = useLoginMutation();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginValues>({ resolver: zodResolver(loginSchema), defaultValues: { email: '', password: '' } });

  const target = from?.pathname?.startsWith('/dashboard')
    ? `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`
    : '/dashboard';

  if (authed) return <Navigate to={target} replace />;

  async function onSubmit(values: LoginValues) {
    try {
      const reply = await login(values).unwrap();
      const user = reply.user ?? userFromToken(reply.token);
      if (!reply.token || !user) throw new Error('Login failed');
      dispatch(loggedIn({ token: reply.token, expiresIn: reply.expiresIn, user }));
      toast.success(reply.message || 'Login successful');
      navigate(target, { replace: true });
    } catch (err) {
      toast.error(errorMessage(err, 'Login failed'));
    }
  }

  return (
    <AuthCard title="Sign In" subtitle={tenant ? <>Sign in to <strong>{tenant}</strong></> : 'Sign in to your account'}>
      <form className="stack" onSubmit={handleSubmit(onSubmit)} noValidate>
        <Field label="Email" htmlFor="email" error={errors.email?.message}>
          <input id="email" type="email" className="input" autoComplete="email" aria-invalid={!!errors.email} {...register('email')} />
        </Field>
        <Field label="Password" htmlFor="password" error={errors.password?.message}>
          <PasswordInput id="password" autoComplete="current-password" aria-invalid={!!errors.password} {...register('password')} />
        </Field>
        <button type="submit" className="btn btn-primary btn-block" disabled={isLoading}>
          {isLoading ? <Spinner small label="Signing in" /> : null}
          Sign In
        </button>
        <Link to="/register" className="btn btn-secondary btn-block">
          Create New Account
        </Link>
      </form>
    </AuthCard>
  );
}
