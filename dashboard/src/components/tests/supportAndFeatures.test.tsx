import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp, signedIn } from '@/test/render';
import { capabilitiesOf, roleOfToken } from '@/test/roles';
import { server } from '@/test/server';

function features(aiWriting: boolean, webhooks: boolean) {
  server.use(
    http.get('*/api/client/info', () =>
      HttpResponse.json({
        success: true,
        message: 'ok',
        data: { company: { subscriptionStatus: 'active', features: { aiWriting, webhooks } } },
      }),
    ),
  );
}

describe('A support session', () => {
  it('shows "Signed in by support as ..." and ends the session', async () => {
    let ended = false;
    server.use(
      http.get('*/api/auth/me', ({ request }) => {
        const role = roleOfToken(request.headers.get('Authorization'));
        return HttpResponse.json({
          success: true,
          user: { id: 'u-1', userId: 'u-1', username: 'alice', role },
          capabilities: capabilitiesOf(role),
          support: { operator: 'ops@platform.example', endsAt: '2026-01-02T11:00:00Z' },
        });
      }),
      http.post('*/api/client/support-access/end', () => {
        ended = true;
        return HttpResponse.json({ success: true, message: 'The support session has ended' });
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/ai-generator', { session: signedIn() });
    const banner = await screen.findByTestId('support-banner');
    expect(banner).toHaveTextContent('Signed in by support as alice');
    expect(banner).toHaveTextContent('ops@platform.example');
    await user.click(screen.getByRole('button', { name: 'End support session' }));
    await waitFor(() => expect(ended).toBe(true));
    expect(await screen.findByRole('button', { name: /sign in/i })).toBeInTheDocument();
  });

  it('shows no banner in a user\'s own session', async () => {
    renderApp('/dashboard/ai-generator', { session: signedIn() });
    expect(await screen.findByRole('main')).toBeInTheDocument();
    expect(screen.queryByTestId('support-banner')).not.toBeInTheDocument();
  });
});

describe('Feature switches of the plan', () => {
  it('disables the AI generator with the way out when the plan has no AI writing', async () => {
    features(false, true);
    renderApp('/dashboard/ai-generator', { session: signedIn() });
    expect(await screen.findByTestId('feature-off-aiWriting')).toHaveTextContent('Your plan does not include AI writing.');
    expect(screen.getByRole('button', { name: /Generate Blog Post/ })).toBeDisabled();
  });

  it('keeps webhook endpoints readable but offers no new one when the plan has no webhooks', async () => {
    features(true, false);
    renderApp('/dashboard/settings/webhooks', { session: signedIn() });
    expect(await screen.findByTestId('feature-off-webhooks')).toHaveTextContent('Your endpoints and their deliveries are kept');
    for (const button of screen.getAllByRole('button', { name: /Add endpoint/ })) expect(button).toBeDisabled();
  });

  it('shows nothing when the plan includes them', async () => {
    features(true, true);
    renderApp('/dashboard/ai-generator', { session: signedIn() });
    expect(await screen.findByRole('heading', { name: 'AI Blog Generator' })).toBeInTheDocument();
    expect(screen.queryByTestId('feature-off-aiWriting')).not.toBeInTheDocument();
  });
});
