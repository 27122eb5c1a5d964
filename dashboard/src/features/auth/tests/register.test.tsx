import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp, ROOT } from '@/test/render';
import { server } from '@/test/server';

afterEach(() => vi.restoreAllMocks());

async function fillStepOne(user: ReturnType<typeof userEvent.setup>, overrides: Partial<Record<string, string>> = {}) {
  const v = { companyName: 'Acme Inc', contactName: 'Ann Smith', contactEmail: 'ann@acme.test', subdomain: 'acme', ...overrides };
  await user.type(await screen.findByLabelText('Company Name'), v.companyName);
  await user.type(screen.getByLabelText('Contact Name'), v.contactName);
  await user.type(screen.getByLabelText('Contact Email'), v.contactEmail);
  await user.type(screen.getByLabelText('Subdomain'), v.subdomain);
}

describe('registration, step 1', () => {
  it('Continue validates the company fields first and stays on step 1', async () => {
    const user = userEvent.setup();
    renderApp('/register', { config: ROOT });
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Company name must be at least 2 characters')).toBeInTheDocument();
    expect(screen.getByText('Contact name is required')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Subdomain must be at least 3 characters')).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).not.toBeVisible();
    expect(screen.getByLabelText('Company Name')).toBeVisible();
  });

  it('rejects a one-letter company and contact name and a bad subdomain', async () => {
    const user = userEvent.setup();
    renderApp('/register', { config: ROOT });
    await fillStepOne(user, { companyName: 'A', contactName: 'B', contactEmail: 'nope', subdomain: 'Acme Co' });
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Company name must be at least 2 characters')).toBeInTheDocument();
    expect(screen.getByText('Contact name is required')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Subdomain can only contain lowercase letters, numbers, and hyphens')).toBeInTheDocument();
  });
});

describe('registration, step 2', () => {
  it('validates the admin account, Previous keeps step 1 values', async () => {
    const user = userEvent.setup();
    renderApp('/register', { config: ROOT });
    await fillStepOne(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(/you will have full control over the CMS/i)).toBeInTheDocument();
    expect(screen.getByText('At least 8 characters')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Username'), 'ab');
    await user.type(screen.getByLabelText('Email'), 'bad');
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Username must be at least 3 characters')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(screen.getByLabelText('Company Name')).toBeVisible();
    expect(screen.getByLabelText('Company Name')).toHaveValue('Acme Inc');
  });

  it('submits the seven fields and goes to the new tenant sign-in page', async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign });
    let sent: unknown;
    server.use(
      http.post('*/api/auth/register-client', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json(
          {
            success: true,
            message: 'Registration successful',
            data: { subdomain: 'acme', loginUrl: 'http://acme.localhost:8000/login' },
          },
          { status: 201 },
        );
      }),
    );
    const user = userEvent.setup();
    renderApp('/register', { config: ROOT });
    await fillStepOne(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.type(await screen.findByLabelText('Username'), 'annadmin');
    await user.type(screen.getByLabelText('Email'), 'admin@acme.test');
    await user.type(screen.getByLabelText('Password'), 'supersecret');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    // The sign-in page is told that the company was just created (it then says so, with the name).
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://acme.localhost:8000/login?created=1'));
    expect(sent).toEqual({
      companyName: 'Acme Inc',
      contactName: 'Ann Smith',
      contactEmail: 'ann@acme.test',
      subdomain: 'acme',
      adminUsername: 'annadmin',
      adminEmail: 'admin@acme.test',
      adminPassword: 'supersecret',
    });
  });

  it('a taken subdomain brings the user back to step 1 with the server message', async () => {
    server.use(
      http.post('*/api/auth/register-client', () =>
        HttpResponse.json(
          { success: false, message: 'This subdomain is already taken', error: 'conflict', code: 'subdomain_taken' },
          { status: 409 },
        ),
      ),
    );
    const user = userEvent.setup();
    renderApp('/register', { config: ROOT });
    await fillStepOne(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.type(await screen.findByLabelText('Username'), 'annadmin');
    await user.type(screen.getByLabelText('Email'), 'admin@acme.test');
    await user.type(screen.getByLabelText('Password'), 'supersecret');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findAllByText('This subdomain is already taken')).not.toHaveLength(0);
    expect(screen.getByLabelText('Subdomain')).toBeVisible();
    expect(screen.getByLabelText('Subdomain')).toHaveValue('acme');
  });

  it('Back to Login goes to /login', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/register', { config: ROOT });
    await user.click(await screen.findByRole('link', { name: 'Back to Login' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});
