import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

const USERS = [
  { id: 'u-1', userId: 'u-1', username: 'alice', email: 'alice@x.test', role: 'admin', status: 'active', lastLogin: '2024-05-01T09:05:00Z' },
  { id: 'u-2', userId: 'u-2', username: 'bob', email: 'bob@x.test', role: 'editor', status: 'suspended', lastLogin: null },
];

function usersApi(list = USERS) {
  let users = [...list];
  server.use(
    http.get('*/api/users', () => HttpResponse.json({ success: true, users })),
    http.get('*/api/invitations', () => HttpResponse.json({ success: true, invitations: [] })),
    http.delete('*/api/users/:id', ({ params }) => {
      users = users.filter((u) => u.id !== params.id);
      return HttpResponse.json({ success: true, message: 'User deleted successfully' });
    }),
  );
}

describe('users list', () => {
  it('title, columns, badges, status colours and last login', async () => {
    usersApi();
    renderApp('/dashboard/users', { session: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Users' })).toBeInTheDocument();
    expect(screen.getByText('Manage user accounts and permissions')).toBeInTheDocument();
    await screen.findByText('bob');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Username', 'Email', 'Role', 'Status', 'Last Login', 'Actions']);
    expect(screen.getByText('active')).toHaveClass('badge-success');
    expect(screen.getByText('suspended')).toHaveClass('badge-danger');
    expect(screen.getByText('Never')).toBeInTheDocument();
    expect(screen.getByText(/May 1, 2024/)).toHaveTextContent(/\d{2}:\d{2}/);
    expect(screen.getByRole('link', { name: /Add User/ })).toHaveAttribute('href', '/dashboard/users/new');
  });

  it('does not offer to delete your own account, deletes others after "Delete user"', async () => {
    usersApi();
    const user = userEvent.setup();
    renderApp('/dashboard/users', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: 'Actions for alice' }));
    expect(screen.getByRole('menuitem', { name: 'Edit' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Delete' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'Actions for bob' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete user' });
    expect(dialog).toHaveTextContent('permanently delete bob');
    expect(dialog).toHaveTextContent('cannot be undone');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('User deleted successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('bob')).not.toBeInTheDocument());
  });

  it('empty and failure texts', async () => {
    usersApi([]);
    const first = renderApp('/dashboard/users', { session: signedIn() });
    expect(await screen.findByText('No users found. Create your first user!')).toBeInTheDocument();
    first.unmount();
    server.use(http.get('*/api/users', () => HttpResponse.json({ success: false, message: 'Only admins', error: 'forbidden' }, { status: 403 })));
    renderApp('/dashboard/users', { session: signedIn() });
    expect(await screen.findByText('Failed to load users. Please try again.')).toBeInTheDocument();
    expect(await screen.findByText('Error loading users. Please try again.')).toBeInTheDocument();
  });
});

describe('create user', () => {
  it('validates every field with the spec messages; role defaults to viewer', async () => {
    const user = userEvent.setup();
    renderApp('/dashboard/users/new', { session: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Create New User' })).toBeInTheDocument();
    expect(screen.getByLabelText('Role')).toHaveValue('viewer');
    expect(screen.getAllByRole('option').map((o) => o.getAttribute('value'))).toEqual(['', 'admin', 'editor', 'author', 'viewer']);
    await user.selectOptions(screen.getByLabelText('Role'), '');
    await user.type(screen.getByLabelText('Username'), 'ab');
    await user.type(screen.getByLabelText('Email'), 'nope');
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText('Username must be at least 3 characters')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(screen.getByText('Please select a role')).toBeInTheDocument();
  });

  it('creates through auth/register-user and returns to the list', async () => {
    let sent: unknown;
    usersApi();
    server.use(
      http.post('*/api/auth/register-user', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ success: true, message: 'User created successfully', user: USERS[1] }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/users/new', { session: signedIn() });
    await user.type(await screen.findByLabelText('Username'), 'carol');
    await user.type(screen.getByLabelText('Email'), 'carol@x.test');
    await user.type(screen.getByLabelText('Password'), 'password123');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText('User created successfully')).toBeInTheDocument();
    expect(sent).toEqual({ username: 'carol', email: 'carol@x.test', password: 'password123', role: 'viewer' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/users'));
  });
});

describe('edit user', () => {
  it('editing a viewer shows the viewer role, and saving keeps it', async () => {
    let sent: unknown;
    const viewer = { ...USERS[1], id: 'u-3', userId: 'u-3', username: 'vic', email: 'vic@x.test', role: 'viewer', status: 'active' };
    usersApi();
    server.use(
      http.get('*/api/users/u-3', () => HttpResponse.json({ success: true, user: viewer })),
      http.put('*/api/users/u-3', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ success: true, message: 'User updated successfully', user: viewer });
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/users/edit/u-3', { session: signedIn() });
    expect(await screen.findByDisplayValue('vic')).toBeInTheDocument();
    expect(screen.getByLabelText('Role')).toHaveValue('viewer');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('User updated successfully')).toBeInTheDocument();
    expect(sent).toMatchObject({ role: 'viewer', status: 'active' });
  });

  it('admin: role and status shown (every role); a blank password is not sent', async () => {
    let sent: unknown;
    usersApi();
    server.use(
      http.get('*/api/users/u-2', () => HttpResponse.json({ success: true, user: USERS[1] })),
      http.put('*/api/users/u-2', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ success: true, message: 'User updated successfully', user: USERS[1] });
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/users/edit/u-2', { session: signedIn() });
    expect(await screen.findByDisplayValue('bob')).toBeInTheDocument();
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('placeholder', 'Leave blank to keep current password');
    expect(screen.getByText('Only fill this if you want to change the password.')).toBeInTheDocument();
    const role = screen.getByLabelText('Role');
    expect(within(role).getAllByRole('option').map((o) => o.getAttribute('value'))).toEqual(['admin', 'editor', 'author', 'viewer']);
    expect(screen.getByLabelText('Status')).toHaveValue('suspended');
    await user.selectOptions(screen.getByLabelText('Status'), 'active');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('User updated successfully')).toBeInTheDocument();
    expect(sent).toEqual({ username: 'bob', email: 'bob@x.test', role: 'editor', status: 'active' });
  });

  it('non-admin: only their own record, without role and status', async () => {
    const editor = { userId: 'u-2', username: 'bob', role: 'editor' as const };
    server.use(
      http.get('*/api/users/u-2', () => HttpResponse.json({ success: true, user: USERS[1] })),
      http.get('*/api/users', () => HttpResponse.json({ success: false, message: 'Only admins', error: 'forbidden' }, { status: 403 })),
    );
    const own = renderApp('/dashboard/users/edit/u-2', { session: signedIn(editor) });
    expect(await screen.findByDisplayValue('bob')).toBeInTheDocument();
    expect(screen.queryByLabelText('Role')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Status')).not.toBeInTheDocument();
    own.unmount();
    const { router } = renderApp('/dashboard/users/edit/u-1', { session: signedIn(editor) });
    expect(await screen.findByText("You don't have permission to edit this user")).toBeInTheDocument();
    // not the Users list, which a non-admin cannot load: their own account page
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/account'));
  });
});

describe('own account: current password', () => {
  const editor = { userId: 'u-2', username: 'bob', role: 'editor' as const };
  const BOB = { ...USERS[1], status: 'active' };

  function ownAccountApi(reply?: (body: Record<string, unknown>) => Response | undefined) {
    const sent: Record<string, unknown>[] = [];
    server.use(
      http.get('*/api/users/u-2', () => HttpResponse.json({ success: true, user: BOB })),
      http.put('*/api/users/u-2', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        sent.push(body);
        return reply?.(body) ?? HttpResponse.json({ success: true, message: 'User updated successfully', user: BOB, token: 't2', expiresIn: 3600 });
      }),
    );
    return sent;
  }

  it('is asked only when the password or the email changes, and sent with them', async () => {
    const sent = ownAccountApi();
    const user = userEvent.setup();
    renderApp('/dashboard/users/edit/u-2', { session: signedIn(editor) });
    expect(await screen.findByDisplayValue('bob')).toBeInTheDocument();
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Password'), 'brand-new-pass');
    const current = screen.getByLabelText('Current password');
    expect(current).toHaveAttribute('type', 'password');
    expect(current).toHaveAttribute('autocomplete', 'current-password');
    expect(screen.getByText('Needed to change your password or email.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Current password is required to change your password or email')).toBeInTheDocument();
    expect(sent).toEqual([]);

    await user.type(current, 'old-password-1');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('User updated successfully')).toBeInTheDocument();
    expect(sent).toEqual([{ username: 'bob', email: 'bob@x.test', password: 'brand-new-pass', currentPassword: 'old-password-1' }]);
  });

  it('a changed email asks for it too; an unchanged record does not send it', async () => {
    const sent = ownAccountApi();
    const user = userEvent.setup();
    const first = renderApp('/dashboard/users/edit/u-2', { session: signedIn(editor) });
    const email = await screen.findByDisplayValue('bob@x.test');
    await user.clear(email);
    await user.type(email, 'BOB@x.test'); // same address, other case: not a change
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('User updated successfully')).toBeInTheDocument();
    expect(sent[0]).toEqual({ username: 'bob', email: 'BOB@x.test' });
    first.unmount();

    renderApp('/dashboard/users/edit/u-2', { session: signedIn(editor) });
    const again = await screen.findByDisplayValue('bob@x.test');
    await user.clear(again);
    await user.type(again, 'robert@x.test');
    await user.type(screen.getByLabelText('Current password'), 'old-password-1');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toEqual({ username: 'bob', email: 'robert@x.test', currentPassword: 'old-password-1' });
  });

  it("shows the server's message on the field when the current password is wrong", async () => {
    const message = 'Current password is incorrect';
    ownAccountApi(() =>
      HttpResponse.json(
        { success: false, message, error: 'validation_error', errors: [{ field: 'currentPassword', message }] },
        { status: 400 },
      ),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/users/edit/u-2', { session: signedIn(editor) });
    await user.type(await screen.findByLabelText('Password'), 'brand-new-pass');
    await user.type(screen.getByLabelText('Current password'), 'not-it');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(message);
    expect(screen.getByLabelText('Current password')).toHaveAttribute('aria-invalid', 'true');
  });

  it('an admin editing someone else is never asked', async () => {
    usersApi();
    server.use(http.get('*/api/users/u-2', () => HttpResponse.json({ success: true, user: BOB })));
    const user = userEvent.setup();
    renderApp('/dashboard/users/edit/u-2', { session: signedIn() });
    await user.type(await screen.findByLabelText('Password'), 'reset-pass-123');
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();
  });
});

describe('inviting an account that waits (made by a blog import)', () => {
  const WAITING = { id: 'u-3', userId: 'u-3', username: 'jane', email: 'jane@old.example', role: 'author', status: 'inactive', lastLogin: null };

  function inviteApi(reply: () => Response) {
    const invited: string[] = [];
    let invitationLists = 0;
    usersApi([...USERS, WAITING]);
    server.use(
      http.post('*/api/users/:id/invite', ({ params }) => {
        invited.push(String(params.id));
        return reply();
      }),
      http.get('*/api/invitations', () => {
        invitationLists += 1;
        return HttpResponse.json({ success: true, invitations: [] });
      }),
    );
    return { invited, invitationLists: () => invitationLists };
  }

  it('an admin invites an inactive account after confirming; active and suspended ones are not offered it', async () => {
    const api = inviteApi(() =>
      HttpResponse.json(
        {
          success: true,
          message: 'Invitation sent to jane@old.example',
          invitation: { id: 'i-1', email: 'jane@old.example', role: 'author', invitedBy: 'alice', sentAt: '2024-05-03T10:00:00Z', expiresAt: '2024-05-10T10:00:00Z', expired: false },
        },
        { status: 201 },
      ),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/users', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: 'Actions for bob' }));
    expect(screen.queryByRole('menuitem', { name: 'Invite' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Actions for alice' }));
    expect(screen.queryByRole('menuitem', { name: 'Invite' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'Actions for jane' }));
    await user.click(screen.getByRole('menuitem', { name: 'Invite' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite user' });
    expect(dialog).toHaveTextContent('Send an invitation to jane@old.example? They choose a password, and the account jane becomes active with its posts.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.invited).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Actions for jane' }));
    await user.click(screen.getByRole('menuitem', { name: 'Invite' }));
    const lists = api.invitationLists();
    await user.click(within(screen.getByRole('dialog', { name: 'Invite user' })).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent to jane@old.example')).toBeInTheDocument();
    expect(api.invited).toEqual(['u-3']);
    expect(screen.queryByRole('dialog', { name: 'Invite user' })).not.toBeInTheDocument();
    // The pending invitations are read again: the new one is listed there.
    await waitFor(() => expect(api.invitationLists()).toBeGreaterThan(lists));
  });

  it('a refusal by the plan says so with the way to the usage; another refusal shows the server message', async () => {
    let reply = () =>
      HttpResponse.json(
        { success: false, error: 'forbidden', code: 'plan_limit', limit: 'staff_seats', used: 3, allowed: 3, plan: 'trial',
          message: 'Your plan allows 3 staff accounts. Remove an account you no longer need, or ask us for a larger plan.' },
        { status: 403 },
      );
    inviteApi(() => reply());
    const user = userEvent.setup();
    renderApp('/dashboard/users', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: 'Actions for jane' }));
    await user.click(screen.getByRole('menuitem', { name: 'Invite' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Invite user' })).getByRole('button', { name: 'Send invitation' }));
    const toastText = await screen.findByText(/Your plan allows 3 staff accounts/);
    expect(within(toastText.closest('li') as HTMLElement).getByRole('link', { name: 'See your plan and usage' })).toHaveAttribute(
      'href',
      '/dashboard/settings#usage',
    );

    reply = () =>
      HttpResponse.json(
        { success: false, error: 'conflict', message: 'This account can already sign in (or was deactivated by an admin)' },
        { status: 409 },
      );
    await user.click(screen.getByRole('button', { name: 'Actions for jane' }));
    await user.click(screen.getByRole('menuitem', { name: 'Invite' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Invite user' })).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('This account can already sign in (or was deactivated by an admin)')).toBeInTheDocument();
  });

  it('only admins are offered it', async () => {
    inviteApi(() => HttpResponse.json({ success: false }, { status: 403 }));
    const user = userEvent.setup();
    renderApp('/dashboard/users', { session: signedIn({ userId: 'u-9', username: 'ed', role: 'editor' }) });
    await user.click(await screen.findByRole('button', { name: 'Actions for jane' }));
    expect(screen.getByRole('menuitem', { name: 'Edit' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Invite' })).not.toBeInTheDocument();
  });
});
