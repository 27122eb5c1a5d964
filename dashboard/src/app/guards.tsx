import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAppSelector } from '@/lib/hooks';
import { selectIsAuthenticated } from '@/lib/session';

/** Sends unauthenticated visitors to /login, remembering where they were going. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const authed = useAppSelector(selectIsAuthenticated);
  const location = useLocation();
  if (!authed) return <Navigate to="/login" replace state={{ from: location }} />;
  return <>{children}</>;
}
