import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

const editor = { userId: 'u-2', username: 'bob', role: 'editor' as const };
const BOB = { id: 'u-2', userId: 'u-2', username: 'bob', email: 'bob@x.test', role: 'editor', status: 'active', lastLogin: null };

describe('my account', () => {
  it('is reached from the sidebar user block and saving stays on it', async () => {
    let sent: Record<string, unknown> | undefined;
    server.use(
      http.get('*/api/users/u-2', () => HttpResponse.json({ success: true, user: BOB })),
      http.put('*/api/users/u-2', async ({ request }) => {
        sent = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json({ success: true, message: 'User updated successfully', user: { ...BOB, username: 'bobby' } });
      }),
      http.get('*/api/dashboard/stats', () => HttpResponse.json({ success: false, message: 'x' }, { status: 503 })),
      http.get('*/api/analytics/page-views', () => HttpResponse.json({ success: false, message: 'x' }, { status: 503 })),
    );
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard', { session: signedIn(editor) });
    await user.click(await screen.findByRole('link', { name: /My account: bob/ }));
    expect(await screen.findByRole('heading', { name: 'My account' })).toBeInTheDocument();
    expect(await screen.findByDisplayValue('bob')).toBeInTheDocument();
    expect(screen.queryByLabelText('Role')).not.toBeInTheDocument();
    await user.clear(screen.getByLabelText('Username'));
    await user.type(screen.getByLabelText('Username'), 'bobby');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(sent).toEqual({ username: 'bobby', email: 'bob@x.test' }));
    expect(await screen.findByText('User updated successfully')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard/account');
  });
});
