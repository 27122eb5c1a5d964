import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, ROOT, signedIn, TENANT } from '@/test/render';

describe('route map', () => {
  it('/ redirects to /login', async () => {
    const { router } = renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('any other path is the 404 page with a link home', async () => {
    renderApp('/nothing/here');
    expect(await screen.findByRole('heading', { name: 'Oops! Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  });

  it('an unknown company host shows the 404 page for every route', async () => {
    renderApp('/login', { config: { ...TENANT, tenantFound: false } });
    expect(await screen.findByRole('heading', { name: 'Oops! Page not found' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign In' })).not.toBeInTheDocument();
  });

  it('the same when the server reports no tenant at all', async () => {
    renderApp('/dashboard', { config: { ...ROOT, tenantFound: false }, session: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Oops! Page not found' })).toBeInTheDocument();
  });

  it('the root domain /login asks for the company, a tenant /login for email and password', async () => {
    const root = renderApp('/login', { config: ROOT });
    expect(await screen.findByLabelText('Company subdomain')).toBeInTheDocument();
    root.unmount();
    renderApp('/login', { config: TENANT });
    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    expect(screen.queryByLabelText('Company subdomain')).not.toBeInTheDocument();
  });

  it('Users is in the sidebar for admins only', async () => {
    const admin = renderApp('/dashboard/ai-generator', { session: signedIn() });
    expect(await screen.findByRole('link', { name: 'Users' })).toBeInTheDocument();
    admin.unmount();
    renderApp('/dashboard/ai-generator', { session: signedIn({ userId: 'u2', username: 'ed', role: 'editor' }) });
    expect(await screen.findByRole('link', { name: 'Settings' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Users' })).not.toBeInTheDocument();
  });

  it('the sidebar collapses to 70 px and opens to 250 px', async () => {
    const { container } = renderApp('/dashboard/ai-generator', { session: signedIn() });
    const { default: userEvent } = await import('@testing-library/user-event');
    const user = userEvent.setup();
    await screen.findByRole('link', { name: 'Settings' });
    const aside = container.querySelector('aside')!;
    expect(aside).toHaveStyle({ width: '250px' });
    await user.click(screen.getByRole('button', { name: 'Collapse sidebar' }));
    expect(aside).toHaveStyle({ width: '70px' });
    await user.click(screen.getByRole('button', { name: 'Expand sidebar' }));
    expect(aside).toHaveStyle({ width: '250px' });
  });
});
