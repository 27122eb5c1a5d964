import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useTwoFactorState } from '@/api/session';
import { useAppSelector } from '@/lib/hooks';
import { selectIsAuthenticated } from '@/lib/session';

/** Sends unauthenticated visitors to /login, remembering where they were going. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const authed = useAppSelector(selectIsAuthenticated);
  const location = useLocation();
  if (!authed) return <Navigate to="/login" replace state={{ from: location }} />;
  return <>{children}</>;
}

export const ACCOUNT_PATH = '/dashboard/account';

/**
 * The company requires two-factor sign-in and this user has not set it up: the server answers every
 * other call with 403 `two_factor_setup_required`, so every screen but the account page (whose
 * two-factor section explains why) leads there.
 */
export function TwoFactorSetupGate({ children }: { children: ReactNode }) {
  const { setupRequired } = useTwoFactorState();
  const location = useLocation();
  if (setupRequired && location.pathname !== ACCOUNT_PATH) {
    return <Navigate to={{ pathname: ACCOUNT_PATH, hash: '#two-factor' }} replace />;
  }
  return <>{children}</>;
}
