import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '@/lib/session';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

const as = (role: Role) => signedIn({ userId: `u-${role}`, username: role, role });
const WEEKLY = { id: 'n-1', name: 'Weekly' };
const LABELS = [
  { id: 'l-1', name: 'VIP', members: 1 },
  { id: 'l-2', name: 'Beta', members: 0 },
];

function member(i: number, over: Record<string, unknown> = {}) {
  return {
    id: `m-${i}`,
    email: `reader${i}@example.com`,
    name: i === 1 ? 'Ada Reader' : '',
    note: '',
    status: 'free',
    emailDisabled: false,
    emailDisabledReason: '',
    source: 'admin',
    consentAt: null,
    consentIp: null,
    labels: i === 1 ? [{ id: 'l-1', name: 'VIP' }] : [],
    newsletters: [WEEKLY],
    createdAt: '2026-11-02T10:00:00Z',
    updatedAt: '2026-11-02T10:00:00Z',
    ...over,
  };
}

/** An in-memory members API; returns the list queries and the writes. */
function membersApi(start = [member(1), member(2, { status: 'comped', newsletters: [] })]) {
  let members = [...start];
  const queries: URLSearchParams[] = [];
  const sent: { method: string; path: string; body?: unknown }[] = [];
  server.use(
    http.get('*/api/members', ({ request }) => {
      const q = new URL(request.url).searchParams;
      queries.push(q);
      let shown = members;
      if (q.get('label')) shown = shown.filter((m) => m.labels.some((l) => l.id === q.get('label')));
      if (q.get('status')) shown = shown.filter((m) => m.status === q.get('status'));
      if (q.get('search')) shown = shown.filter((m) => m.email.includes(q.get('search')!));
      if (q.get('newsletter') === 'none') shown = shown.filter((m) => m.newsletters.length === 0);
      return HttpResponse.json({
        success: true,
        members: shown,
        pagination: { total: shown.length, totalPages: 1, currentPage: 1, limit: 20 },
      });
    }),
    http.get('*/api/members/labels', () => HttpResponse.json({ success: true, labels: LABELS })),
    http.get('*/api/members/export', ({ request }) => {
      const q = new URL(request.url).searchParams;
      sent.push({ method: 'GET', path: `members/export?${q.toString()}` });
      return HttpResponse.json({ success: true, url: 'http://demo.localhost/api/members/export/download/tok', fileName: 'members.csv' });
    }),
    http.post('*/api/members/bulk/labels', async ({ request }) => {
      const body = await request.json();
      sent.push({ method: 'POST', path: 'members/bulk/labels', body });
      return HttpResponse.json({ success: true, message: 'Labels changed on 2 members', updated: 2 });
    }),
    http.get('*/api/members/:id', ({ params }) => {
      const found = members.find((m) => m.id === params.id);
      return found
        ? HttpResponse.json({ success: true, member: found })
        : HttpResponse.json({ success: false, error: 'not_found', message: 'Member not found' }, { status: 404 });
    }),
    http.post('*/api/members', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      sent.push({ method: 'POST', path: 'members', body });
      if (body.email === 'taken@example.com') {
        return HttpResponse.json(
          { success: false, error: 'conflict', code: 'email_taken', message: 'A member with this email already exists' },
          { status: 409 },
        );
      }
      const made = member(9, { ...body, labels: [] });
      members = [made, ...members];
      return HttpResponse.json({ success: true, message: 'Member added', member: made }, { status: 201 });
    }),
    http.put('*/api/members/:id', async ({ params, request }) => {
      const body = await request.json();
      sent.push({ method: 'PUT', path: `members/${params.id}`, body });
      return HttpResponse.json({ success: true, message: 'Member updated', member: members.find((m) => m.id === params.id) });
    }),
    http.delete('*/api/members/:id', ({ params }) => {
      sent.push({ method: 'DELETE', path: `members/${params.id}` });
      members = members.filter((m) => m.id !== params.id);
      return HttpResponse.json({ success: true, message: 'Member deleted' });
    }),
  );
  return { queries, sent };
}

const rowOf = (text: string) => screen.getByText(text, { selector: 'strong' }).closest('tr')!;

afterEach(() => vi.restoreAllMocks());

describe('members list', () => {
  it('every role finds Members in the sidebar; the list shows status, labels, newsletters', async () => {
    membersApi();
    renderApp('/dashboard/members', { session: as('viewer') });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(await within(nav).findByRole('link', { name: 'Members' })).toBeInTheDocument();
    const ada = (await screen.findByText('Ada Reader', { selector: 'strong' })).closest('tr')!;
    expect(ada).toHaveTextContent('reader1@example.com');
    expect(within(ada).getByText('VIP')).toBeInTheDocument();
    expect(ada).toHaveTextContent('Weekly');
    expect(ada).toHaveTextContent('Free');
    const other = rowOf('reader2@example.com');
    expect(other).toHaveTextContent('Complimentary');
    expect(screen.getByText('2 members')).toBeInTheDocument();
  });

  it('filters by label, status and newsletter (kept in the address) and searches', async () => {
    const { queries } = membersApi();
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/members', { session: as('editor') });
    await screen.findByText('Ada Reader', { selector: 'strong' });
    const label = screen.getByLabelText('Label');
    expect(within(label).getAllByRole('option').map((o) => o.textContent)).toEqual(['All', 'VIP (1)', 'Beta (0)']);
    await user.selectOptions(label, 'l-1');
    await waitFor(() => expect(queries.at(-1)?.get('label')).toBe('l-1'));
    await waitFor(() => expect(screen.queryByText('reader2@example.com', { selector: 'strong' })).not.toBeInTheDocument());
    expect(router.state.location.search).toBe('?label=l-1');
    await user.selectOptions(screen.getByLabelText('Status'), 'comped');
    await waitFor(() => expect(queries.at(-1)?.get('status')).toBe('comped'));
    expect(queries.at(-1)?.get('label')).toBe('l-1');
    expect(await screen.findByText('No members match these filters.')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Label'), '');
    await user.selectOptions(screen.getByLabelText('Status'), '');
    // The newsletters seen on members, and "none".
    const newsletter = screen.getByLabelText('Newsletter');
    expect(within(newsletter).getAllByRole('option').map((o) => o.textContent)).toEqual(['All', 'Subscribed to none', 'Weekly']);
    await user.selectOptions(newsletter, 'none');
    await waitFor(() => expect(queries.at(-1)?.get('newsletter')).toBe('none'));
    await user.selectOptions(screen.getByLabelText('Newsletter'), '');
    await user.type(screen.getByRole('searchbox', { name: 'Search members' }), 'reader2');
    await waitFor(() => expect(queries.at(-1)?.get('search')).toBe('reader2'));
    await waitFor(() => expect(screen.queryByText('Ada Reader', { selector: 'strong' })).not.toBeInTheDocument());
  });

  it('viewer: reads only (no add, import, export, choosing; View in the row menu; the member read only)', async () => {
    membersApi();
    const user = userEvent.setup();
    renderApp('/dashboard/members', { session: as('viewer') });
    await screen.findByText('Ada Reader', { selector: 'strong' });
    expect(screen.queryByRole('link', { name: /Add member/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Import CSV/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Export/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: /Choose/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Actions for reader1@example.com' }));
    expect(screen.getAllByRole('menuitem').map((m) => m.textContent)).toEqual(['View']);
    await user.click(screen.getByRole('menuitem', { name: 'View' }));
    expect(await screen.findByText('Your role can read members, not change them')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toBeDisabled();
    expect(screen.getByLabelText('Email')).toHaveValue('reader1@example.com');
    expect(screen.queryByRole('button', { name: 'Save member' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('editor: chooses members and changes their labels at once', async () => {
    const { sent } = membersApi();
    const user = userEvent.setup();
    renderApp('/dashboard/members', { session: as('editor') });
    await screen.findByText('Ada Reader', { selector: 'strong' });
    await user.click(screen.getByRole('checkbox', { name: 'Choose all on this page' }));
    expect(screen.getByText('2 chosen')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Choose reader1@example.com' }));
    await user.click(screen.getByRole('checkbox', { name: 'Choose reader1@example.com' }));
    await user.click(screen.getByRole('button', { name: 'Labels...' }));
    const dialog = screen.getByRole('dialog', { name: 'Labels of 2 members' });
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(within(dialog).getByText('Name a label to add, or choose one to take off')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Add labels'), ' Early  birds, VIP ,early birds');
    await user.click(within(within(dialog).getByRole('group', { name: 'Take off' })).getByRole('checkbox', { name: 'Beta' }));
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Labels changed on 2 members')).toBeInTheDocument();
    expect(sent.find((s) => s.path === 'members/bulk/labels')?.body).toEqual({
      memberIds: ['m-1', 'm-2'],
      add: ['Early birds', 'VIP'],
      remove: ['l-2'],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByText('2 chosen')).not.toBeInTheDocument();
  });

  it('editor: exports the members the filters name, as a CSV download', async () => {
    const { sent } = membersApi();
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(`${this.href} ${this.download}`);
    });
    const user = userEvent.setup();
    renderApp('/dashboard/members?label=l-1', { session: as('editor') });
    await user.click(await screen.findByRole('button', { name: 'Export these members (CSV)' }));
    expect(await screen.findByText('The members CSV is downloading')).toBeInTheDocument();
    expect(sent.find((s) => s.path.startsWith('members/export'))?.path).toBe('members/export?label=l-1');
    expect(clicked).toEqual(['http://demo.localhost/api/members/export/download/tok members.csv']);
  });

  it('editor: deletes a member after confirming', async () => {
    const { sent } = membersApi();
    const user = userEvent.setup();
    renderApp('/dashboard/members', { session: as('editor') });
    await user.click(await screen.findByRole('button', { name: 'Actions for reader2@example.com' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete member' });
    expect(dialog).toHaveTextContent('Delete reader2@example.com?');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Member deleted')).toBeInTheDocument();
    expect(sent.filter((s) => s.method === 'DELETE').map((s) => s.path)).toEqual(['members/m-2']);
    await waitFor(() => expect(screen.queryByText('reader2@example.com', { selector: 'strong' })).not.toBeInTheDocument());
  });
});

describe('a member', () => {
  it('add: the server\'s messages first here; a taken address on the email; the labels chosen and made', async () => {
    const { sent } = membersApi();
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/members/new', { session: as('editor') });
    await user.click(await screen.findByRole('button', { name: 'Add member' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Add member' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(sent).toHaveLength(0);
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'taken@example.com');
    await user.click(screen.getByRole('button', { name: 'Add member' }));
    expect(await screen.findByText('A member with this email already exists')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');

    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'new@example.com');
    await user.type(screen.getByLabelText('Name'), 'Nina New');
    await user.selectOptions(screen.getByLabelText('Status'), 'comped');
    await user.click(screen.getByRole('checkbox', { name: 'VIP' }));
    await user.type(screen.getByRole('textbox', { name: 'New label' }), 'Early birds{Enter}');
    expect(screen.getByRole('checkbox', { name: 'Early birds' })).toBeChecked();
    expect(screen.getByText("A new member is subscribed to the company's default newsletters.")).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add member' }));
    expect(await screen.findByText('Member added')).toBeInTheDocument();
    expect(sent.at(-1)).toEqual({
      method: 'POST',
      path: 'members',
      body: { email: 'new@example.com', name: 'Nina New', note: '', status: 'comped', labels: ['VIP', 'Early birds'] },
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/members'));
  });

  it('edit: unsubscribes, sends to a turned-off address again; newsletters only when changed', async () => {
    const { sent } = membersApi([member(1, { emailDisabled: true, emailDisabledReason: 'The address bounced' })]);
    const user = userEvent.setup();
    renderApp('/dashboard/members/m-1', { session: as('admin') });
    expect(await screen.findByRole('heading', { name: 'Ada Reader', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Emails to this address are turned off: The address bounced.')).toBeInTheDocument();
    expect(screen.getByText('Added in the dashboard')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Name'));
    await user.type(screen.getByLabelText('Name'), 'Ada Lovelace');
    await user.click(screen.getByRole('button', { name: 'Save member' }));
    expect(await screen.findByText('Member updated')).toBeInTheDocument();
    expect(sent.at(-1)?.body).toEqual({ email: 'reader1@example.com', name: 'Ada Lovelace', note: '', status: 'free', labels: ['VIP'] });

    renderApp('/dashboard/members/m-1', { session: as('admin') });
    await screen.findAllByRole('heading', { name: 'Ada Reader', level: 1 });
    const form = screen.getAllByRole('form', { name: 'Member' }).at(-1)!;
    await user.click(within(within(form).getByRole('group', { name: 'Subscribed to' })).getByRole('checkbox', { name: 'Weekly' }));
    await user.click(within(form).getByRole('checkbox', { name: 'Send emails to this address again' }));
    await user.click(within(form).getByRole('button', { name: 'Save member' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent.at(-1)?.body).toMatchObject({ newsletters: [], emailDisabled: false });
  });

  it('a member that does not exist', async () => {
    membersApi();
    renderApp('/dashboard/members/m-404', { session: as('editor') });
    expect(await screen.findByText('This member could not be loaded. It may have been deleted.')).toBeInTheDocument();
  });

  it('authors and viewers cannot add one', async () => {
    membersApi();
    renderApp('/dashboard/members/new', { session: as('author') });
    expect(await screen.findByText('Only editors and administrators can manage members.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
  });
});
