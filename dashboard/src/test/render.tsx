import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '@/app/providers';
import { buildRoutes } from '@/app/router';
import { makeStore } from '@/app/store';
import type { CmsConfig } from '@/lib/config';
import type { SessionState, SessionUser } from '@/lib/session';
import { tokenFor } from './roles';

export const TENANT: CmsConfig = { rootDomain: 'localhost', tenant: 'demo', tenantFound: true };
export const ROOT: CmsConfig = { rootDomain: 'localhost', tenant: null, tenantFound: true };

export const ADMIN: SessionUser = { userId: 'u-1', username: 'alice', role: 'admin' };

export function signedIn(user: SessionUser = ADMIN, msLeft = 60 * 60 * 1000): SessionState {
  return { token: tokenFor(user.role), expiresAt: Date.now() + msLeft, user };
}

export const SIGNED_OUT: SessionState = { token: null, expiresAt: null, user: null };

/** Render the whole app (real routes, store and providers) at a path. */
export function renderApp(path: string, opts: { session?: SessionState; config?: CmsConfig } = {}) {
  const store = makeStore(opts.session ?? SIGNED_OUT);
  const router = createMemoryRouter(buildRoutes(opts.config ?? TENANT), { initialEntries: [path] });
  const utils = render(
    <AppProviders store={store} config={opts.config ?? TENANT}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...utils, store, router };
}
