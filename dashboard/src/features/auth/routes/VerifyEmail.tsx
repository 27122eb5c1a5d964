import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { LoadingState } from '@/components/ui';
import { useVerifyEmailMutation } from '@/api/company';
import { useCmsConfig } from '@/lib/configContext';
import { errorMessage } from '@/lib/errors';
import { useAppSelector } from '@/lib/hooks';
import { selectIsAuthenticated } from '@/lib/session';
import { AuthCard } from '../components/AuthCard';

const INVALID = 'This verification link is invalid or has expired. Sign in and use "Resend" to get a new one.';

/** The page the verification email opens: confirms the address, then offers the dashboard. */
export function VerifyEmail() {
  const { tenant, companyName } = useCmsConfig();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const authed = useAppSelector(selectIsAuthenticated);
  const [verify] = useVerifyEmailMutation();
  const [state, setState] = useState<{ ok?: string; error?: string }>({});

  useEffect(() => {
    if (!token) {
      setState({ error: INVALID });
      return;
    }
    verify({ token })
      .unwrap()
      .then((reply) => setState({ ok: reply.message }))
      .catch((err: unknown) => setState({ error: errorMessage(err, INVALID) }));
  }, [token, verify]);

  return (
    <AuthCard title="Verify your email" subtitle={<strong>{companyName || tenant}</strong>}>
      {!state.ok && !state.error ? (
        <LoadingState label="Verifying..." />
      ) : (
        <div className="stack">
          {state.ok ? (
            <div className="notice notice-success" role="status">
              {state.ok}
            </div>
          ) : (
            <p role="alert">{state.error}</p>
          )}
          <Link to={authed ? '/dashboard' : '/login'} className="btn btn-primary btn-block">
            {authed ? 'Go to the dashboard' : 'Sign in'}
          </Link>
        </div>
      )}
    </AuthCard>
  );
}
