import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { baseHandlers, settingsHandlers } from '@/test/fixtures';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

const SEATS = {
  success: false,
  error: 'forbidden',
  code: 'plan_limit',
  limit: 'staff_seats',
  used: 3,
  allowed: 3,
  plan: 'trial',
  message: 'Your plan allows 3 staff accounts. Remove an account you no longer need, or ask us for a larger plan.',
};

const STORAGE = {
  ...SEATS,
  limit: 'media_bytes',
  message: 'Your plan allows 1 GB of media. Delete media you no longer need, or ask us for a larger plan.',
};

const USAGE = {
  success: true,
  plan: 'trial',
  trialEndsAt: null,
  readOnly: false,
  publicApiRequestsPerMinute: 60,
  aiJobsPerDay: 20,
  limits: [{ limit: 'staff_seats', used: 3, allowed: 3 }],
  days: [],
};

describe('a refusal by the company plan', () => {
  it("shows the server's message with the way to Settings → Usage, which opens on the usage card", async () => {
    server.use(
      http.get('*/api/users', () => HttpResponse.json({ success: true, users: [] })),
      http.get('*/api/invitations', () => HttpResponse.json({ success: true, invitations: [] })),
      http.post('*/api/auth/register-user', () => HttpResponse.json(SEATS, { status: 403 })),
      http.get('*/api/usage', () => HttpResponse.json(USAGE)),
      ...settingsHandlers,
    );
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/users/new', { session: signedIn() });
    await user.type(await screen.findByLabelText('Username'), 'carol');
    await user.type(screen.getByLabelText('Email'), 'carol@x.test');
    await user.type(screen.getByLabelText('Password'), 'password123');
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    const message = await screen.findByText(/Your plan allows 3 staff accounts\./);
    const toast = message.closest('li')!;
    expect(toast).toHaveTextContent('Remove an account you no longer need, or ask us for a larger plan.');
    expect(screen.queryByText('Failed to create user')).not.toBeInTheDocument();
    const link = within(toast).getByRole('link', { name: 'See your plan and usage' });
    expect(link).toHaveAttribute('href', '/dashboard/settings#usage');
    await user.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/settings'));
    expect(router.state.location.hash).toBe('#usage');
    // Followed: the toast goes away; the usage card is there and has focus.
    await waitFor(() => expect(screen.queryByText(/Your plan allows 3 staff accounts\./)).not.toBeInTheDocument());
    const card = (await screen.findByRole('heading', { name: 'Usage' })).closest('section')!;
    await waitFor(() => expect(card).toHaveFocus());
  });

  it('to someone who cannot read the usage (an editor uploading media), says who can, with no link', async () => {
    server.use(
      ...baseHandlers,
      http.post('*/api/media/upload', () => HttpResponse.json(STORAGE, { status: 403 })),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/media', { session: signedIn({ userId: 'u-2', username: 'ed', role: 'editor' }) });
    await user.click(await screen.findByRole('button', { name: 'Upload New' }));
    await user.upload(screen.getByTestId('media-file-input'), new File([new Uint8Array(10)], 'big.png', { type: 'image/png' }));
    const who = await screen.findByText('An administrator can see the plan and its usage in Settings.');
    const toast = who.closest('li')!;
    expect(toast).toHaveTextContent('Your plan allows 1 GB of media. Delete media you no longer need');
    expect(within(toast).queryByRole('link')).not.toBeInTheDocument();
  });

  it('is told the same way in a form that keeps it in sight (a webhook endpoint)', async () => {
    server.use(
      http.get('*/api/webhooks', () => HttpResponse.json({ success: true, endpoints: [], events: ['post.published', 'post.deleted'] })),
      http.post('*/api/webhooks', () =>
        HttpResponse.json({ ...SEATS, limit: 'webhook_endpoints', message: 'Your plan allows 1 webhook endpoint.' }, { status: 403 }),
      ),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/settings/webhooks', { session: signedIn() });
    const open = await screen.findByRole('button', { name: /Add endpoint/ });
    await waitFor(() => expect(open).toBeEnabled()); // enabled once the endpoints have loaded
    await user.click(open);
    const dialog = await screen.findByRole('dialog', { name: 'Add endpoint' });
    await user.type(within(dialog).getByLabelText('Endpoint URL'), 'https://example.com/hook');
    await user.click(within(dialog).getByRole('checkbox', { name: 'post.published' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    const notice = await within(dialog).findByRole('alert');
    expect(notice).toHaveTextContent('Your plan allows 1 webhook endpoint.');
    expect(within(notice).getByRole('link', { name: 'See your plan and usage' })).toHaveAttribute('href', '/dashboard/settings#usage');
  });
});
