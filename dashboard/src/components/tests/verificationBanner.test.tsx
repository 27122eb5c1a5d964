import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { baseHandlers } from '@/test/fixtures';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

describe('email verification', () => {
  it('shows a banner with Resend until the email is verified', async () => {
    let resent = 0;
    server.use(
      ...baseHandlers,
      http.get('*/api/client/verification', () =>
        HttpResponse.json({ success: true, verified: false, email: 'boss@x.test', sentAt: null }),
      ),
      http.post('*/api/client/verification/resend', () => {
        resent += 1;
        return HttpResponse.json({ success: true, message: 'We sent a new verification link to boss@x.test.' });
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard', { session: signedIn() });
    expect(await screen.findByText('Please verify your email.')).toBeInTheDocument();
    expect(screen.getByText('boss@x.test')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('We sent a new verification link to boss@x.test.')).toBeInTheDocument();
    expect(resent).toBe(1);
  });

  it('the emailed link verifies and says so', async () => {
    let token = '';
    server.use(
      http.post('*/api/client/verify-email', async ({ request }) => {
        token = ((await request.json()) as { token: string }).token;
        return HttpResponse.json({ success: true, message: 'Your email address is verified.' });
      }),
    );
    renderApp('/verify-email?token=t-1');
    expect(await screen.findByText('Your email address is verified.')).toBeInTheDocument();
    expect(token).toBe('t-1');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  });
});
