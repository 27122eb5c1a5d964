import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/test/render';
import { server } from '@/test/server';

const SAME_REPLY = 'If an account with this email exists, we have sent it a link to choose a new password.';

describe('forgot password', () => {
  it('is reached from the sign-in page and shows the same reply for any address', async () => {
    const user = userEvent.setup();
    let sent: unknown;
    server.use(
      http.post('*/api/auth/forgot-password', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ success: true, message: SAME_REPLY });
      }),
    );
    renderApp('/login');
    await user.click(await screen.findByRole('link', { name: 'Forgot password?' }));
    await screen.findByRole('heading', { name: 'Forgot your password?' });
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Email me a link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(SAME_REPLY);
    expect(sent).toEqual({ email: 'ada@example.com' });
  });

  it('checks the email before asking the server', async () => {
    const user = userEvent.setup();
    renderApp('/forgot-password');
    await user.type(await screen.findByLabelText('Email'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Email me a link' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
  });
});

describe('reset password page', () => {
  it('names the account, refuses mismatched passwords, then sets the password and goes to sign-in', async () => {
    const user = userEvent.setup();
    let body: unknown;
    server.use(
      http.post('*/api/auth/reset-password/check', () =>
        HttpResponse.json({ success: true, email: 'ada@example.com', username: 'ada' }),
      ),
      http.post('*/api/auth/reset-password', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ success: true, message: 'Your password has been changed.' });
      }),
    );
    renderApp('/reset-password?uid=abc&token=tok-1');
    expect(await screen.findByText('ada@example.com')).toBeInTheDocument();
    await user.type(screen.getByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Repeat the new password'), 'new-password-2');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('The two passwords do not match')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Repeat the new password'));
    await user.type(screen.getByLabelText('Repeat the new password'), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    await waitFor(() => expect(body).toEqual({ uid: 'abc', token: 'tok-1', password: 'new-password-1' }));
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('says when the link no longer works and offers a new one', async () => {
    server.use(
      http.post('*/api/auth/reset-password/check', () =>
        HttpResponse.json(
          { success: false, error: 'validation_error', code: 'link_invalid', message: 'This password reset link is invalid or has expired. Please ask for a new one.' },
          { status: 400 },
        ),
      ),
    );
    renderApp('/reset-password?uid=abc&token=used');
    expect(await screen.findByRole('alert')).toHaveTextContent('invalid or has expired');
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot-password');
  });
});
