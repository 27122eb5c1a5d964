import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Role } from '@/lib/session';
import { settingsHandlers } from '@/test/fixtures';
import { renderApp, signedIn } from '@/test/render';
import { FIRST_NEWSLETTER, server } from '@/test/server';

const as = (role: Role) => signedIn({ userId: `u-${role}`, username: role, role });
const WEEKLY = {
  ...FIRST_NEWSLETTER, id: 'nl-2', name: 'Weekly', slug: 'weekly', description: 'Every Friday', senderName: 'The Team',
  replyTo: 'team@x.test', footer: 'Sent with care', defaultOnSignup: false, members: 12,
};

/** An in-memory newsletters API; returns the bodies of the writes. */
function newslettersApi(start: unknown[] = [FIRST_NEWSLETTER, WEEKLY]) {
  let list = [...start] as (typeof WEEKLY)[];
  const sent: { method: string; path: string; body: unknown }[] = [];
  server.use(
    ...settingsHandlers,
    http.get('*/api/newsletters', () => HttpResponse.json({ success: true, newsletters: list })),
    http.post('*/api/newsletters', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      sent.push({ method: 'POST', path: 'newsletters', body });
      if (list.some((n) => n.name.toLowerCase() === String(body.name).toLowerCase())) {
        return HttpResponse.json({ success: false, error: 'conflict', message: 'A newsletter with this name already exists' }, { status: 409 });
      }
      if (body.replyTo === 'bad@') {
        return HttpResponse.json(
          { success: false, error: 'validation_error', message: 'Validation failed', errors: [{ field: 'replyTo', message: 'Reply-to must be an email address' }] },
          { status: 400 },
        );
      }
      const made = { ...FIRST_NEWSLETTER, ...body, id: 'nl-9', slug: 'made', status: 'active', members: 0 } as typeof WEEKLY;
      list = [...list, made];
      return HttpResponse.json({ success: true, message: 'Newsletter created', newsletter: made }, { status: 201 });
    }),
    http.put('*/api/newsletters/:id', async ({ params, request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      sent.push({ method: 'PUT', path: `newsletters/${params.id}`, body });
      list = list.map((n) => (n.id === params.id ? { ...n, ...body } : n));
      return HttpResponse.json({ success: true, message: 'Newsletter updated', newsletter: list.find((n) => n.id === params.id) });
    }),
  );
  return sent;
}

const rowOf = (name: string) => screen.getByText(name, { selector: 'strong' }).closest('tr')!;

describe('Settings → Newsletters', () => {
  it('Settings shows the active newsletters with their members and leads to the screen', async () => {
    newslettersApi();
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/settings', { session: as('editor') });
    const card = within((await screen.findByRole('heading', { name: 'Newsletters' })).closest('section')!);
    expect(await card.findByText('Weekly')).toBeInTheDocument();
    expect(card.getByText('12 members')).toBeInTheDocument();
    await user.click(card.getByRole('link', { name: 'Manage newsletters' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/settings/newsletters'));
    expect(await screen.findByRole('heading', { name: 'Newsletters', level: 1 })).toBeInTheDocument();
  });

  it('lists each newsletter: members, sender and reply-to, whether new readers join, status', async () => {
    newslettersApi([FIRST_NEWSLETTER, WEEKLY, { ...WEEKLY, id: 'nl-3', name: 'Old news', status: 'archived', members: 1 }]);
    renderApp('/dashboard/settings/newsletters', { session: as('editor') });
    await screen.findByText('Weekly', { selector: 'strong' });
    const first = rowOf('Newsletter');
    expect(first).toHaveTextContent('New readers join');
    expect(first).toHaveTextContent("The site's title");
    expect(first).toHaveTextContent('0 members');
    const weekly = rowOf('Weekly');
    expect(weekly).toHaveTextContent('Every Friday');
    expect(weekly).toHaveTextContent('The Team');
    expect(weekly).toHaveTextContent('Replies to team@x.test');
    expect(weekly).toHaveTextContent('12 members');
    expect(weekly).not.toHaveTextContent('New readers join');
    expect(rowOf('Old news')).toHaveTextContent('Archived');
  });

  it('adds a newsletter: the rules first, then a taken name on its field', async () => {
    const sent = newslettersApi();
    const user = userEvent.setup();
    renderApp('/dashboard/settings/newsletters', { session: as('editor') });
    await screen.findByText('Weekly', { selector: 'strong' });
    await user.click(screen.getByRole('button', { name: 'Add newsletter' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add newsletter' }));
    expect(dialog.queryByLabelText('Status')).not.toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Add newsletter' }));
    expect(await dialog.findByText('Name is required')).toBeInTheDocument();
    await user.type(dialog.getByLabelText('Name'), 'weekly');
    await user.type(dialog.getByLabelText('Reply-to address'), 'nope');
    await user.click(dialog.getByRole('button', { name: 'Add newsletter' }));
    expect(await dialog.findByText('Reply-to must be an email address')).toBeInTheDocument();
    expect(sent).toHaveLength(0);
    await user.clear(dialog.getByLabelText('Reply-to address'));
    await user.click(dialog.getByRole('button', { name: 'Add newsletter' }));
    expect(await dialog.findByText('A newsletter with this name already exists')).toBeInTheDocument();
    expect(dialog.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    await user.clear(dialog.getByLabelText('Name'));
    await user.type(dialog.getByLabelText('Name'), 'Product news');
    await user.type(dialog.getByLabelText('Sender name'), 'Acme');
    await user.type(dialog.getByLabelText('Reply-to address'), 'news@acme.test');
    await user.type(dialog.getByLabelText('Footer'), 'You subscribed on acme.test');
    await user.click(dialog.getByRole('checkbox', { name: 'New readers join it when they sign up without choosing' }));
    await user.click(dialog.getByRole('button', { name: 'Add newsletter' }));
    expect(await screen.findByText('Newsletter created')).toBeInTheDocument();
    expect(sent.at(-1)).toEqual({
      method: 'POST',
      path: 'newsletters',
      body: { name: 'Product news', description: '', senderName: 'Acme', replyTo: 'news@acme.test', footer: 'You subscribed on acme.test', defaultOnSignup: false },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Product news', { selector: 'strong' })).toBeInTheDocument();
  });

  it('edits one (its fields and its status), archives one after asking and makes it active again', async () => {
    const sent = newslettersApi();
    const user = userEvent.setup();
    renderApp('/dashboard/settings/newsletters', { session: signedIn() });
    await screen.findByText('Weekly', { selector: 'strong' });
    await user.click(within(rowOf('Weekly')).getByRole('button', { name: 'Actions for Weekly' }));
    await user.click(screen.getByRole('menuitem', { name: 'Edit' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit Weekly' }));
    expect(dialog.getByLabelText('Sender name')).toHaveValue('The Team');
    expect(dialog.getByLabelText('Footer')).toHaveValue('Sent with care');
    expect(dialog.getByRole('checkbox')).not.toBeChecked();
    await user.clear(dialog.getByLabelText('Name'));
    await user.type(dialog.getByLabelText('Name'), 'Friday letter');
    await user.click(dialog.getByRole('button', { name: 'Save newsletter' }));
    expect(await screen.findByText('Newsletter updated')).toBeInTheDocument();
    expect(sent.at(-1)?.body).toEqual({
      name: 'Friday letter', description: 'Every Friday', senderName: 'The Team', replyTo: 'team@x.test', footer: 'Sent with care',
      defaultOnSignup: false, status: 'active',
    });

    await user.click(within(await screen.findByText('Friday letter', { selector: 'strong' }).then((el) => el.closest('tr')!)).getByRole('button', { name: 'Actions for Friday letter' }));
    await user.click(screen.getByRole('menuitem', { name: 'Archive' }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Archive newsletter' }));
    expect(confirm.getByText(/Nothing can be sent to it/)).toBeInTheDocument();
    await user.click(confirm.getByRole('button', { name: 'Archive' }));
    expect(await screen.findByText('Newsletter updated')).toBeInTheDocument();
    expect(sent.at(-1)).toEqual({ method: 'PUT', path: 'newsletters/nl-2', body: { status: 'archived' } });
    await waitFor(() => expect(rowOf('Friday letter')).toHaveTextContent('Archived'));
    await user.click(within(rowOf('Friday letter')).getByRole('button', { name: 'Actions for Friday letter' }));
    await user.click(screen.getByRole('menuitem', { name: 'Make active' }));
    expect(await screen.findByText('Friday letter is active again')).toBeInTheDocument();
    expect(sent.at(-1)?.body).toEqual({ status: 'active' });
  });

  it('a viewer reads them: no Add, no actions; Settings says View', async () => {
    newslettersApi();
    const viewer = renderApp('/dashboard/settings/newsletters', { session: as('viewer') });
    await screen.findByText('Weekly', { selector: 'strong' });
    expect(screen.getByText('Your role can read newsletters, not change them.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add newsletter' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Actions for/ })).not.toBeInTheDocument();
    viewer.unmount();
    renderApp('/dashboard/settings', { session: as('viewer') });
    const card = within((await screen.findByRole('heading', { name: 'Newsletters' })).closest('section')!);
    expect(await card.findByRole('link', { name: 'View newsletters' })).toBeInTheDocument();
  });
});

const REPORT = {
  success: true,
  send: {
    id: 's-1', postId: 'p1', postTitle: 'Spring news', newsletter: { id: 'nl-2', name: 'Weekly' }, label: { id: 'l-1', name: 'VIP' },
    subject: 'Spring news', status: 'sent', recipients: 5, error: '', createdAt: '2026-11-20T10:00:00Z',
    startedAt: '2026-11-20T10:00:01Z', finishedAt: '2026-11-20T10:00:09Z',
  },
  counts: { pending: 0, delivered: 3, failed: 1, bounced: 1, complained: 0, skipped: 0, opened: null, clicked: null },
  reasons: [
    { status: 'failed', reason: '550 mailbox unavailable', count: 1 },
    { status: 'bounced', reason: 'bounced (Mailgun): no such user', count: 1 },
  ],
  tracking: { opens: false, clicks: false },
  links: [] as { url: string; members: number; clicks: number }[],
};

describe('a send report', () => {
  it('recipients, sent, failed with reasons, bounced; the way back to the post', async () => {
    server.use(http.get('*/api/newsletters/sends/s-1', () => HttpResponse.json(REPORT)));
    renderApp('/dashboard/settings/newsletters/sends/s-1', { session: as('viewer') });
    expect(await screen.findByRole('heading', { name: 'Send report', level: 1 })).toBeInTheDocument();
    expect(await screen.findByText('Spring news, to Weekly')).toBeInTheDocument();
    const about = within(screen.getByRole('region', { name: 'Send' }));
    expect(about.getByText('Members with the label VIP')).toBeInTheDocument();
    expect(about.getByText('Sent')).toBeInTheDocument();
    const delivery = within(screen.getByRole('region', { name: 'Delivery' }));
    const value = (label: string) => delivery.getByText(label).nextElementSibling?.textContent;
    expect(value('Recipients')).toBe('5 members');
    expect(value('Sent')).toBe('3');
    expect(value('Failed')).toBe('1');
    expect(value('Bounced')).toBe('1');
    const reasons = within(screen.getByRole('table', { name: 'Reasons' }));
    expect(reasons.getByText('550 mailbox unavailable').closest('tr')).toHaveTextContent('Failed');
    expect(reasons.getByText('bounced (Mailgun): no such user').closest('tr')).toHaveTextContent('Bounced');
    expect(screen.getAllByRole('link', { name: 'Back to the post' })[0]).toHaveAttribute('href', '/dashboard/posts/edit/p1');
    expect(screen.queryByRole('button', { name: 'Cancel the send' })).not.toBeInTheDocument();
  });

  it('a send waiting for its post: cancelled by an editor', async () => {
    let status = 'scheduled';
    server.use(
      http.get('*/api/newsletters/sends/s-1', () =>
        HttpResponse.json({ ...REPORT, send: { ...REPORT.send, status, recipients: 0, startedAt: null, finishedAt: null }, counts: { ...REPORT.counts, delivered: 0, failed: 0, bounced: 0 }, reasons: [] }),
      ),
      http.post('*/api/newsletters/sends/s-1/cancel', () => {
        status = 'cancelled';
        return HttpResponse.json({ success: true, message: 'The send is cancelled', send: { ...REPORT.send, status } });
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/settings/newsletters/sends/s-1', { session: as('editor') });
    expect(await screen.findByText('Will be sent when the post publishes.')).toBeInTheDocument();
    expect(screen.getByText('Counted when it starts')).toBeInTheDocument();
    expect(screen.getByText('None.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel the send' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Cancel this send?' }));
    await user.click(dialog.getByRole('button', { name: 'Cancel the send' }));
    expect(await screen.findByText('The send is cancelled')).toBeInTheDocument();
    expect(await within(screen.getByRole('region', { name: 'Send' })).findByText('Cancelled')).toBeInTheDocument();
    expect(screen.queryByText('Will be sent when the post publishes.')).not.toBeInTheDocument();
  });
});

describe('opens and clicks', () => {
  function settingsApi() {
    let settings = { trackOpens: false, trackClicks: false };
    const sent: unknown[] = [];
    server.use(
      http.get('*/api/newsletters/settings', () => HttpResponse.json({ success: true, message: 'Newsletter settings', settings })),
      http.put('*/api/newsletters/settings', async ({ request }) => {
        const body = (await request.json()) as Partial<typeof settings>;
        sent.push(body);
        settings = { ...settings, ...body };
        return HttpResponse.json({ success: true, message: 'Newsletter settings saved', settings });
      }),
    );
    return sent;
  }

  it('an admin turns counting opens on in Settings → Newsletters; it says what it does for readers', async () => {
    newslettersApi();
    const sent = settingsApi();
    const user = userEvent.setup();
    renderApp('/dashboard/settings/newsletters', { session: signedIn() });
    const section = within((await screen.findByRole('heading', { name: 'Opens and clicks' })).closest('section')!);
    const opens = await section.findByRole('checkbox', { name: 'Count opens' });
    const clicks = section.getByRole('checkbox', { name: 'Count clicks' });
    expect(opens).not.toBeChecked();
    expect(clicks).not.toBeChecked();
    expect(section.getByText(/Off unless you turn them on/)).toHaveTextContent('privacy policy');
    expect(opens).toHaveAccessibleDescription(/invisible 1×1 image/);
    await user.click(opens);
    expect(await screen.findByText('Newsletter settings saved')).toBeInTheDocument();
    expect(sent).toEqual([{ trackOpens: true }]);
    await waitFor(() => expect(section.getByRole('checkbox', { name: 'Count opens' })).toBeChecked());
    expect(section.getByRole('checkbox', { name: 'Count clicks' })).not.toBeChecked();
  });

  it('an editor sees the setting but cannot change it', async () => {
    newslettersApi();
    settingsApi();
    renderApp('/dashboard/settings/newsletters', { session: as('editor') });
    const section = within((await screen.findByRole('heading', { name: 'Opens and clicks' })).closest('section')!);
    expect(await section.findByRole('checkbox', { name: 'Count opens' })).toBeDisabled();
    expect(section.getByRole('checkbox', { name: 'Count clicks' })).toBeDisabled();
    expect(section.getByText('Only administrators can change this.')).toBeInTheDocument();
  });

  it('a tracked send shows the members who opened and clicked, and its most clicked links', async () => {
    server.use(
      http.get('*/api/newsletters/sends/s-1', () =>
        HttpResponse.json({
          ...REPORT,
          counts: { ...REPORT.counts, opened: 2, clicked: 1 },
          tracking: { opens: true, clicks: true },
          links: [{ url: 'https://example.org/spring', members: 1, clicks: 3 }],
        }),
      ),
    );
    renderApp('/dashboard/settings/newsletters/sends/s-1', { session: as('viewer') });
    const card = within(await screen.findByRole('region', { name: 'Opens and clicks' }));
    const value = (label: string) => card.getByText(label).nextElementSibling?.textContent;
    expect(value('Opened')).toBe('2 members (67%)');
    expect(value('Clicked a link')).toBe('1 member (33%)');
    expect(card.getByText(/Opens are approximate/)).toBeInTheDocument();
    const row = within(screen.getByRole('table', { name: 'Most clicked links' })).getByText('https://example.org/spring').closest('tr')!;
    expect(row).toHaveTextContent('3');
  });

  it('a send that did not count them says so', async () => {
    server.use(http.get('*/api/newsletters/sends/s-1', () => HttpResponse.json(REPORT)));
    renderApp('/dashboard/settings/newsletters/sends/s-1', { session: as('viewer') });
    const card = within(await screen.findByRole('region', { name: 'Opens and clicks' }));
    expect(card.getByText('Opened').nextElementSibling).toHaveTextContent('Not counted');
    expect(card.getByText('Clicked a link').nextElementSibling).toHaveTextContent('Not counted');
    expect(card.getByText(/they were off in Settings → Newsletters when it started/)).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Most clicked links' })).not.toBeInTheDocument();
  });
});
