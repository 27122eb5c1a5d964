import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { baseHandlers, postListReply } from '@/test/fixtures';
import { renderApp, ROOT, TENANT } from '@/test/render';
import { server } from '@/test/server';

describe('tenant sign-in', () => {
  it('names the company, and says it was just created when coming from sign-up', async () => {
    renderApp('/login?created=1', { config: { ...TENANT, companyName: 'Acme Inc' } });
    expect(await screen.findByText(/Acme Inc was created\./)).toBeInTheDocument();
    expect(screen.getByText('Acme Inc', { selector: 'strong' })).toBeInTheDocument();
  });

  it('says nothing about creation on a normal visit', async () => {
    renderApp('/login', { config: { ...TENANT, companyName: 'Acme Inc' } });
    await screen.findByRole('button', { name: 'Sign In' });
    expect(screen.queryByText(/was created/)).not.toBeInTheDocument();
  });

  it('requires email and password', async () => {
    const user = userEvent.setup();
    renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
  });

  it('requires an email-shaped email', async () => {
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText('Email'), 'not-an-email');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
  });

  it('shows and hides the password', async () => {
    const user = userEvent.setup();
    renderApp('/login');
    const input = await screen.findByLabelText('Password');
    expect(input).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(input).toHaveAttribute('type', 'password');
  });

  it('signs in, stores the session and opens the remembered page', async () => {
    server.use(
      ...baseHandlers,
      http.post('*/api/auth/login', async ({ request }) => {
        const body = (await request.json()) as { email: string; password: string };
        expect(body).toEqual({ email: 'alice@example.com', password: 'secret123' });
        return HttpResponse.json({
          success: true,
          token: 'jwt-token',
          expiresIn: 3600,
          message: 'Login successful',
          user: { userId: 'u-1', username: 'alice', role: 'admin' },
        });
      }),
      http.get('*/api/posts', () => HttpResponse.json(postListReply([]))),
    );
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/posts');
    // Not signed in: sent to /login, origin remembered.
    await user.type(await screen.findByLabelText('Email'), 'alice@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/posts'));
    expect(localStorage.getItem('token')).toBe('jwt-token');
    const expiry = Number(localStorage.getItem('tokenExpiry'));
    expect(expiry).toBeGreaterThan(Date.now() + 3_500_000);
    expect(JSON.parse(localStorage.getItem('user')!)).toEqual({ userId: 'u-1', username: 'alice', role: 'admin' });
    expect(await screen.findByText('No posts found. Create your first post!')).toBeInTheDocument();
  });

  it('shows the server message when sign-in fails and does not talk about sessions', async () => {
    server.use(
      http.post('*/api/auth/login', () =>
        HttpResponse.json({ success: false, message: 'Invalid email or password', error: 'unauthorized' }, { status: 401 }),
      ),
    );
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText('Email'), 'alice@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid email or password')).toBeInTheDocument();
    expect(screen.queryByText('Your session has expired. Please log in again.')).not.toBeInTheDocument();
  });
});

describe('root-domain sign-in', () => {
  it('validates the subdomain and moves to the tenant host', async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign, protocol: 'http:', port: '8000' });
    const user = userEvent.setup();
    renderApp('/login', { config: ROOT });
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Subdomain must be at least 3 characters')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Company subdomain'), 'Acme!');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Subdomain can only contain lowercase letters, numbers, and hyphens')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Company subdomain'));
    await user.type(screen.getByLabelText('Company subdomain'), 'acme');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(assign).toHaveBeenCalledWith('http://acme.localhost:8000/login');
    vi.restoreAllMocks();
  });
});
