import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useExchangeSupportLinkMutation } from '@/api/support';
import { LoadingState } from '@/components/LoadingState';
import { errorMessage } from '@/lib/errors';
import { useAppDispatch } from '@/lib/hooks';
import { loggedIn, userFromToken } from '@/lib/session';
import { AuthCard } from '../components/AuthCard';

/** Opened from the operator console (`/support-session#token=...`): the one-time link is traded for
 *  a support session of the user (the fragment never reaches a server's logs), then the dashboard
 *  opens with its banner "Signed in by support as ...". */
export function SupportSession() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [exchange] = useExchangeSupportLinkMutation();
  const [error, setError] = useState('');
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
    window.history.replaceState(null, '', window.location.pathname); // the link is used once
    exchange({ token })
      .unwrap()
      .then((reply) => {
        const user = userFromToken(reply.token);
        if (!user) throw new Error('This support link is invalid');
        dispatch(loggedIn({ token: reply.token, expiresIn: reply.expiresIn, user }));
        navigate('/dashboard', { replace: true });
      })
      .catch((err: unknown) => setError(errorMessage(err, 'This support link is invalid, was used already or has expired')));
  }, [dispatch, exchange, navigate]);

  if (!error) return <LoadingState label="Opening the support session..." />;
  return (
    <AuthCard title="Support session">
      <div className="notice notice-danger" role="alert">
        {error}
      </div>
      <p className="small muted">
        Start a new session from the operator console. <Link to="/login">Sign in</Link>
      </p>
    </AuthCard>
  );
}
