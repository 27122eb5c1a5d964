import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { baseHandlers, postListReply } from '@/test/fixtures';
import { renderApp, ROOT } from '@/test/render';
import { server } from '@/test/server';

const REQUIRED = {
  success: false,
  error: 'forbidden',
  code: 'two_factor_required',
  message: 'Enter the 6-digit code from your authenticator app to finish signing in.',
  challengeToken: 'challenge-1',
  expiresIn: 300,
};
const SIGNED_IN = {
  success: true,
  token: 'jwt-token',
  expiresIn: 3600,
  message: 'Login successful',
  user: { userId: 'u-1', username: 'alice', role: 'admin' },
};

async function passwordStep() {
  const user = userEvent.setup();
  const rendered = renderApp('/login');
  await user.type(await screen.findByLabelText('Email'), 'alice@example.com');
  await user.type(screen.getByLabelText('Password'), 'secret123');
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
  return { user, ...rendered };
}

describe('two-factor sign-in', () => {
  it('asks for the code after the password and signs in with it', async () => {
    const sent: unknown[] = [];
    server.use(
      ...baseHandlers,
      http.post('*/api/auth/login', () => HttpResponse.json(REQUIRED, { status: 403 })),
      http.post('*/api/auth/login/2fa', async ({ request }) => {
        const body = (await request.json()) as { code: string };
        sent.push(body);
        if (body.code !== '123456') {
          return HttpResponse.json(
            { success: false, error: 'validation_error', code: 'two_factor_invalid', message: 'That code is not right.', errors: [{ field: 'code', message: 'That code is not right.' }] },
            { status: 400 },
          );
        }
        return HttpResponse.json(SIGNED_IN);
      }),
      http.get('*/api/posts', () => HttpResponse.json(postListReply([]))),
    );
    const { user, router } = await passwordStep();
    const code = await screen.findByLabelText('Authentication code');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(screen.getByText('Enter the 6-digit code from your authenticator app to finish signing in.')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();

    await user.type(code, '12345');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('The code has 6 digits')).toBeInTheDocument();
    await user.clear(code);
    await user.type(code, '654321');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('That code is not right.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Authentication code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(localStorage.getItem('token')).toBe('jwt-token');
    expect(sent).toEqual([
      { challengeToken: 'challenge-1', code: '654321' },
      { challengeToken: 'challenge-1', code: '123456' },
    ]);
  });

  it('takes a recovery code instead', async () => {
    let sent: unknown;
    server.use(
      ...baseHandlers,
      http.post('*/api/auth/login', () => HttpResponse.json(REQUIRED, { status: 403 })),
      http.post('*/api/auth/login/2fa', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json(SIGNED_IN);
      }),
      http.get('*/api/posts', () => HttpResponse.json(postListReply([]))),
    );
    const { user, router } = await passwordStep();
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    const input = screen.getByLabelText('Recovery code');
    expect(input).toHaveAttribute('autocomplete', 'off');
    await user.type(input, 'abcde-fghjk');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(sent).toEqual({ challengeToken: 'challenge-1', code: 'abcde-fghjk' });
  });

  it('goes back to the password when the challenge expired', async () => {
    server.use(
      http.post('*/api/auth/login', () => HttpResponse.json(REQUIRED, { status: 403 })),
      http.post('*/api/auth/login/2fa', () =>
        HttpResponse.json(
          { success: false, error: 'validation_error', code: 'two_factor_challenge_invalid', message: 'This sign-in attempt has expired. Please sign in again with your email and password.' },
          { status: 400 },
        ),
      ),
    );
    const { user } = await passwordStep();
    await user.type(await screen.findByLabelText('Authentication code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(/This sign-in attempt has expired/)).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
  });

  it('prefills the email from the emailed sign-in link', async () => {
    renderApp('/login?email=jo%40example.com');
    expect(await screen.findByLabelText('Email')).toHaveValue('jo@example.com');
  });
});

describe('find my companies on the root domain', () => {
  it('emails the sign-in pages and shows the same message whatever the address', async () => {
    let sent: unknown;
    server.use(
      http.post('*/api/auth/find-companies', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({
          success: true,
          message: "If this email has an account, we have sent it a list of your companies' sign-in pages.",
        });
      }),
    );
    const user = userEvent.setup();
    renderApp('/login', { config: ROOT });
    expect(await screen.findByLabelText('Company subdomain')).toBeInTheDocument();
    const email = screen.getByLabelText('Your email');
    await user.click(screen.getByRole('button', { name: 'Email me my sign-in pages' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    await user.type(email, 'jo@example.com');
    await user.click(screen.getByRole('button', { name: 'Email me my sign-in pages' }));
    expect(await screen.findByText(/we have sent it a list of your companies' sign-in pages/)).toBeInTheDocument();
    expect(sent).toEqual({ email: 'jo@example.com' });
  });

  it('says when there were too many requests', async () => {
    server.use(
      http.post('*/api/auth/find-companies', () =>
        HttpResponse.json({ success: false, error: 'rate_limited', message: 'Too many requests. Please try again in 5 minutes.' }, { status: 429 }),
      ),
    );
    const user = userEvent.setup();
    renderApp('/login', { config: ROOT });
    await user.type(await screen.findByLabelText('Your email'), 'jo@example.com');
    await user.click(screen.getByRole('button', { name: 'Email me my sign-in pages' }));
    expect(await screen.findByText('Too many requests. Please try again in 5 minutes.')).toBeInTheDocument();
  });
});
