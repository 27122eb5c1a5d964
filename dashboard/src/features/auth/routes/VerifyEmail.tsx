import { useCallback } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useVerifyEmailMutation } from '@/api/company';
import { LoadingState } from '@/components/LoadingState';
import { useCmsConfig } from '@/lib/configContext';
import { useAppSelector } from '@/lib/hooks';
import { selectIsAuthenticated } from '@/lib/session';
import { AuthCard } from '../components/AuthCard';
import { useLinkCheck } from '../components/EmailedLink';

const INVALID = 'This verification link is invalid or has expired. Sign in and use "Resend" to get a new one.';

/** The page the verification email opens: confirms the address, then offers the dashboard. */
export function VerifyEmail() {
  const { tenant, companyName } = useCmsConfig();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const authed = useAppSelector(selectIsAuthenticated);
  const [verify] = useVerifyEmailMutation();
  const verifyLink = useCallback(() => verify({ token }).unwrap(), [verify, token]);
  const link = useLinkCheck(token ? verifyLink : null, INVALID);

  return (
    <AuthCard title="Verify your email" subtitle={<strong>{companyName || tenant}</strong>}>
      {!link.value && !link.error ? (
        <LoadingState label="Verifying..." />
      ) : (
        <div className="stack">
          {link.value ? (
            <div className="notice notice-success" role="status">
              {link.value.message}
            </div>
          ) : (
            <p role="alert">{link.error}</p>
          )}
          <Link to={authed ? '/dashboard' : '/login'} className="btn btn-primary btn-block">
            {authed ? 'Go to the dashboard' : 'Sign in'}
          </Link>
        </div>
      )}
    </AuthCard>
  );
}
