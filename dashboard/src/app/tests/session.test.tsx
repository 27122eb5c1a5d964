import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { loggedIn, storeSession } from '@/lib/session';
import { baseHandlers, postListReply } from '@/test/fixtures';
import { ADMIN, renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';
import { loadStoredSession } from '@/lib/session';

const EXPIRED = 'Your session has expired. Please log in again.';

describe('session', () => {
  it('protected routes send visitors to /login', async () => {
    const { router } = renderApp('/dashboard/posts');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('a 401 reply logs out with the session-expired toast', async () => {
    server.use(
      http.get('*/api/posts', ({ request }) => {
        expect(request.headers.get('Authorization')).toBe('Bearer test-token');
        return HttpResponse.json({ success: false, message: 'Token expired', error: 'unauthorized' }, { status: 401 });
      }),
    );
    storeSession(signedIn());
    const { router, store } = renderApp('/dashboard/posts', { session: signedIn() });
    expect(await screen.findByText(EXPIRED)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(store.getState().session.token).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
    // Nothing of the signed-out user stays cached.
    await waitFor(() => expect(Object.keys(store.getState().api.queries)).toEqual([]));
  });

  it('logs out when the stored expiry passes, without any request', async () => {
    server.use(...baseHandlers);
    const { router, store } = renderApp('/dashboard', { session: signedIn(ADMIN) });
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    // A session that ends in 300 ms (as after a login with expiresIn 0.3).
    act(() => {
      store.dispatch(loggedIn({ token: 'short-token', expiresIn: 0.3, user: ADMIN }));
    });
    expect(screen.queryByText(EXPIRED)).not.toBeInTheDocument();
    expect(await screen.findByText(EXPIRED)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(store.getState().session.token).toBeNull();
  });

  it('an expired token is not sent: the call is refused locally and the user logged out', async () => {
    let called = false;
    server.use(
      http.get('*/api/posts', () => {
        called = true;
        return HttpResponse.json(postListReply([]));
      }),
    );
    const { router } = renderApp('/dashboard/posts', { session: { ...signedIn(), expiresAt: Date.now() - 1000 } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(called).toBe(false);
  });

  it('restores an unexpired session from local storage, and Logout clears it', async () => {
    server.use(...baseHandlers);
    storeSession(signedIn());
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard', { session: loadStoredSession() });
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('alice')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
  });
});
