import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

const PENDING = {
  id: 'i-1', email: 'pat@x.test', role: 'author', invitedBy: 'alice',
  sentAt: '2024-05-01T09:05:00Z', expiresAt: '2024-05-08T09:05:00Z', expired: true,
};

function api() {
  let invitations = [PENDING];
  const calls: string[] = [];
  server.use(
    http.get('*/api/users', () => HttpResponse.json({ success: true, users: [] })),
    http.get('*/api/invitations', () => HttpResponse.json({ success: true, invitations })),
    http.post('*/api/invitations', async ({ request }) => {
      const body = (await request.json()) as { email: string; role: string };
      calls.push(`invite ${body.email} ${body.role}`);
      if (body.email === 'taken@x.test') {
        return HttpResponse.json(
          { success: false, error: 'conflict', code: 'email_taken', message: 'A user with this email already exists',
            errors: [{ field: 'email', message: 'A user with this email already exists' }] },
          { status: 409 },
        );
      }
      if (body.email === 'fourth@x.test') {
        return HttpResponse.json(
          { success: false, error: 'forbidden', code: 'plan_limit', limit: 'staff_seats', used: 3, allowed: 3, plan: 'trial',
            message: 'Your plan allows 3 staff accounts. Remove an account you no longer need, or ask us for a larger plan.' },
          { status: 403 },
        );
      }
      const invitation = { ...PENDING, id: 'i-2', email: body.email, role: body.role, expired: false };
      invitations = [invitation, ...invitations];
      return HttpResponse.json({ success: true, message: `Invitation sent to ${body.email}`, invitation }, { status: 201 });
    }),
    http.post('*/api/invitations/:id/resend', ({ params }) => {
      calls.push(`resend ${params.id}`);
      return HttpResponse.json({ success: true, message: 'Invitation sent again to pat@x.test', invitation: PENDING });
    }),
    http.delete('*/api/invitations/:id', ({ params }) => {
      calls.push(`revoke ${params.id}`);
      invitations = invitations.filter((i) => i.id !== params.id);
      return HttpResponse.json({ success: true, message: 'Invitation revoked' });
    }),
  );
  return calls;
}

describe('invitations on the Users screen', () => {
  it('invites by email with a role and lists it as pending', async () => {
    const calls = api();
    const user = userEvent.setup();
    renderApp('/dashboard/users', { session: signedIn() });
    const form = await screen.findByRole('form', { name: 'Invite by email' });
    await user.type(within(form).getByLabelText('Email'), 'new@x.test');
    await user.selectOptions(within(form).getByLabelText('Role'), 'editor');
    await user.click(within(form).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent to new@x.test')).toBeInTheDocument();
    expect(calls).toEqual(['invite new@x.test editor']);
    const table = await screen.findByRole('table', { name: 'Pending invitations' });
    expect(await within(table).findByText('new@x.test')).toBeInTheDocument();
    expect(within(table).getByText('expired')).toHaveClass('badge-danger');
  });

  it('shows the server’s message under the field for an address that already has a user', async () => {
    api();
    const user = userEvent.setup();
    renderApp('/dashboard/users', { session: signedIn() });
    const form = await screen.findByRole('form', { name: 'Invite by email' });
    await user.type(within(form).getByLabelText('Email'), 'taken@x.test');
    await user.click(within(form).getByRole('button', { name: 'Send invitation' }));
    expect(await within(form).findByText('A user with this email already exists')).toBeInTheDocument();
  });

  it('shows the plan’s refusal with the way out when every staff seat is taken', async () => {
    api();
    const user = userEvent.setup();
    renderApp('/dashboard/users', { session: signedIn() });
    const form = await screen.findByRole('form', { name: 'Invite by email' });
    await user.type(within(form).getByLabelText('Email'), 'fourth@x.test');
    await user.click(within(form).getByRole('button', { name: 'Send invitation' }));
    const notice = await screen.findByRole('alert');
    expect(notice).toHaveTextContent('Your plan allows 3 staff accounts.');
    expect(within(notice).getByRole('link', { name: 'See your plan and usage' })).toHaveAttribute(
      'href', '/dashboard/settings#usage');
  });

  it('resends and revokes a pending invitation', async () => {
    const calls = api();
    const user = userEvent.setup();
    renderApp('/dashboard/users', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: 'Resend the invitation to pat@x.test' }));
    expect(await screen.findByText('Invitation sent again to pat@x.test')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Revoke the invitation to pat@x.test' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Revoke invitation' })).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('No pending invitations.')).toBeInTheDocument();
    await waitFor(() => expect(calls).toEqual(['resend i-1', 'revoke i-1']));
  });
});

describe('accept invitation page', () => {
  it('names the address and role, creates the account and opens the dashboard signed in', async () => {
    const user = userEvent.setup();
    server.use(
      http.post('*/api/auth/invitation/check', () => HttpResponse.json({ success: true, email: 'pat@x.test', role: 'author' })),
      http.post('*/api/auth/accept-invitation', () =>
        HttpResponse.json(
          { success: true, message: 'Welcome! Your account is ready.', token: 'jwt', expiresIn: 3600,
            user: { userId: 'u-9', username: 'pat', role: 'author' } },
          { status: 201 },
        ),
      ),
    );
    const { store } = renderApp('/accept-invite?token=t-1');
    expect(await screen.findByText('pat@x.test')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Username'), 'pat');
    await user.type(screen.getByLabelText('Password'), 'password-123');
    await user.click(screen.getByRole('button', { name: 'Create my account' }));
    await waitFor(() => expect(store.getState().session.token).toBe('jwt'));
  });

  it('says when the link no longer works', async () => {
    server.use(
      http.post('*/api/auth/invitation/check', () =>
        HttpResponse.json({ success: false, error: 'validation_error', code: 'link_invalid', message: 'This invitation link is invalid, was already used or has expired.' }, { status: 400 }),
      ),
    );
    renderApp('/accept-invite?token=used');
    expect(await screen.findByRole('alert')).toHaveTextContent('already used');
  });
});
