import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { Role } from '@/lib/session';
import { baseHandlers, makePost, postListReply } from '@/test/fixtures';
import { renderApp, signedIn } from '@/test/render';
import { FIRST_NEWSLETTER, server } from '@/test/server';

vi.mock('@/components/editor/CkEditorField', () => import('./editorMock'));

const as = (role: Role, userId = `u-${role}`) => signedIn({ userId, username: role, role });
const WEEKLY = { ...FIRST_NEWSLETTER, id: 'nl-2', name: 'Weekly', slug: 'weekly', members: 2 };
const OLD = { ...FIRST_NEWSLETTER, id: 'nl-3', name: 'Old news', slug: 'old-news', status: 'archived', members: 5 };
const LABELS = [
  { id: 'l-1', name: 'VIP', members: 1 },
  { id: 'l-2', name: 'Beta', members: 0 },
];

function sendOf(over: Record<string, unknown> = {}) {
  return {
    id: 's-1', postId: 'p1', postTitle: 'Post number 1', newsletter: { id: 'nl-2', name: 'Weekly' }, label: null,
    subject: 'Post number 1', status: 'sent', recipients: 2, error: '', createdAt: '2026-11-20T10:00:00Z',
    startedAt: '2026-11-20T10:00:01Z', finishedAt: '2026-11-20T10:00:05Z', ...over,
  };
}

const PLAN_LIMIT = {
  success: false, error: 'forbidden', code: 'plan_limit', limit: 'emails_per_month', used: 9999, allowed: 10000, plan: 'trial',
  message: 'Your plan allows 10000 newsletter emails a month. The count starts again on the first day of next month (UTC), or ask us for a larger plan.',
};

/** A post p1 in its editor, the company's newsletters and labels, and the newsletters API; returns
 * the recipients queries and the bodies of the writes. */
function emailApi(post: ReturnType<typeof makePost>, { sends = [] as unknown[], sendReply = null as null | (() => Response) } = {}) {
  const counted: URLSearchParams[] = [];
  const sent: { path: string; body: unknown }[] = [];
  let list = [...sends];
  server.use(
    ...baseHandlers,
    http.get('*/api/posts/p1', () => HttpResponse.json({ success: true, post: { ...post, content: '<p>Body</p>' } })),
    http.get('*/api/posts', () => HttpResponse.json(postListReply([]))),
    http.get('*/api/posts/p1/autosave', () => HttpResponse.json({ success: true, autosave: null })),
    http.get('*/api/posts/p1/preview-links', () => HttpResponse.json({ success: true, links: [] })),
    http.get('*/api/posts/p1/translations', () => HttpResponse.json({ success: true, translations: [] })),
    http.get('*/api/newsletters', () => HttpResponse.json({ success: true, newsletters: [FIRST_NEWSLETTER, WEEKLY, OLD] })),
    http.get('*/api/members/labels', () => HttpResponse.json({ success: true, labels: LABELS })),
    http.get('*/api/posts/p1/sends', () => HttpResponse.json({ success: true, sends: list })),
    http.get('*/api/posts/p1/send/recipients', ({ request }) => {
      const q = new URL(request.url).searchParams;
      counted.push(q);
      const n = q.get('labelId') === 'l-1' ? 1 : q.get('labelId') === 'l-2' ? 0 : q.get('newsletterId') === 'nl-2' ? 2 : 0;
      return HttpResponse.json({ success: true, recipients: n });
    }),
    http.post('*/api/posts/p1/send', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      sent.push({ path: 'send', body });
      if (sendReply) return sendReply();
      const scheduled = post.status !== 'published';
      const made = sendOf({
        id: 's-9', newsletter: { id: body.newsletterId, name: 'Weekly' }, label: body.labelId ? { id: body.labelId, name: 'VIP' } : null,
        status: scheduled ? 'scheduled' : 'queued', recipients: 0, startedAt: null, finishedAt: null,
      });
      list = [made, ...list];
      return HttpResponse.json(
        { success: true, message: scheduled ? 'The post will be sent when it is published' : 'The post is being sent', send: made },
        { status: 202 },
      );
    }),
    http.post('*/api/posts/p1/send/test', async ({ request }) => {
      sent.push({ path: 'test', body: await request.json() });
      return HttpResponse.json({ success: true, message: 'A test email is on its way to alice@x.test' }, { status: 202 });
    }),
    http.post('*/api/newsletters/sends/:id/cancel', ({ params }) => {
      sent.push({ path: `cancel ${params.id}`, body: null });
      list = list.map((s) => ((s as { id: string }).id === params.id ? { ...(s as object), status: 'cancelled' } : s));
      return HttpResponse.json({ success: true, message: 'The send is cancelled', send: list[0] });
    }),
  );
  return { counted, sent };
}

const card = async () => within(await screen.findByTestId('email-newsletter'));

describe('the editor: Email newsletter', () => {
  it('a published post: choose the newsletter and a label, see the count, confirm "Send to 1 member"', async () => {
    const { counted, sent } = emailApi(makePost(1, { status: 'published' }));
    const user = userEvent.setup();
    renderApp('/dashboard/posts/edit/p1', { session: as('editor') });
    const panel = await card();
    expect(panel.getByRole('heading', { name: 'Email newsletter' })).toBeInTheDocument();
    await user.click(await panel.findByRole('button', { name: 'Send by email' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Send by email' }));
    // The active newsletters with their members; an archived one is not offered.
    const newsletter = dialog.getByLabelText('Newsletter');
    expect(within(newsletter).getAllByRole('option').map((o) => o.textContent)).toEqual(['Newsletter (0 members)', 'Weekly (2 members)']);
    expect(newsletter).toHaveValue('nl-1');
    expect(await dialog.findByText('This newsletter has no members yet: nobody would get it.')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.selectOptions(newsletter, 'nl-2');
    expect(await dialog.findByText('2 members')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Send to 2 members' })).toBeEnabled();
    await within(dialog.getByLabelText('Recipients')).findByRole('option', { name: /VIP/ }); // the labels have loaded
    await user.selectOptions(dialog.getByLabelText('Recipients'), 'VIP');
    expect(await dialog.findByText('1 member')).toBeInTheDocument();
    expect(dialog.getByRole('status')).toHaveTextContent('This email goes to 1 member with this label.');
    expect(counted.at(-1)?.get('newsletterId')).toBe('nl-2');
    expect(counted.at(-1)?.get('labelId')).toBe('l-1');
    await user.click(dialog.getByRole('button', { name: 'Send to 1 member' }));
    expect(await screen.findByText('The post is being sent')).toBeInTheDocument();
    expect(sent).toEqual([{ path: 'send', body: { newsletterId: 'nl-2', labelId: 'l-1' } }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The send is listed with its status and its report.
    const sends = await panel.findByRole('list', { name: 'Sends of this post' });
    expect(within(sends).getByText('Weekly, label VIP')).toBeInTheDocument();
    expect(within(sends).getByText('Queued')).toBeInTheDocument();
    expect(within(sends).getByRole('link', { name: 'Report of the send to Weekly, label VIP' })).toHaveAttribute(
      'href',
      '/dashboard/settings/newsletters/sends/s-9',
    );
  });

  it('a label nobody of the newsletter has: nobody to send to; a subject is sent when given', async () => {
    const { sent } = emailApi(makePost(1, { status: 'published' }));
    const user = userEvent.setup();
    renderApp('/dashboard/posts/edit/p1', { session: signedIn() });
    await user.click(await (await card()).findByRole('button', { name: 'Send by email' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Send by email' }));
    await user.selectOptions(dialog.getByLabelText('Newsletter'), 'nl-2');
    await user.selectOptions(dialog.getByLabelText('Recipients'), 'Beta');
    expect(await dialog.findByText('No member of this newsletter has this label: nobody would get it.')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.selectOptions(dialog.getByLabelText('Recipients'), '');
    await user.type(dialog.getByLabelText('Subject'), 'Our news this week');
    await user.click(await dialog.findByRole('button', { name: 'Send to 2 members' }));
    await screen.findByText('The post is being sent');
    expect(sent[0].body).toEqual({ newsletterId: 'nl-2', subject: 'Our news this week' });
  });

  it('a scheduled post: "Will be sent when it publishes"; its waiting send can be cancelled', async () => {
    const { sent } = emailApi(makePost(1, { status: 'draft', isScheduled: true, scheduledPublishDate: '2099-01-31T09:00:00Z' }));
    const user = userEvent.setup();
    renderApp('/dashboard/posts/edit/p1', { session: as('editor') });
    const panel = await card();
    expect(panel.getByText(/a send asked for now goes out when it publishes/)).toBeInTheDocument();
    await user.click(await panel.findByRole('button', { name: 'Send by email' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Send by email' }));
    await user.selectOptions(dialog.getByLabelText('Newsletter'), 'nl-2');
    expect(await dialog.findByText('2 members')).toBeInTheDocument();
    expect(dialog.getByText(/Will be sent when it publishes/)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Send when it publishes' }));
    expect(await screen.findByText('The post will be sent when it is published')).toBeInTheDocument();
    const sends = await panel.findByRole('list', { name: 'Sends of this post' });
    expect(await within(sends).findByText('Waiting for publication')).toBeInTheDocument();
    await user.click(within(sends).getByRole('button', { name: 'Cancel the send to Weekly' }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Cancel this send?' }));
    await user.click(confirm.getByRole('button', { name: 'Cancel the send' }));
    expect(await screen.findByText('The send is cancelled')).toBeInTheDocument();
    expect(sent.at(-1)?.path).toBe('cancel s-9');
    expect(await within(sends).findByText('Cancelled')).toBeInTheDocument();
    expect(within(sends).queryByRole('button', { name: /Cancel the send/ })).not.toBeInTheDocument();
  });

  it('a newsletter the post went to already is not offered again; a 409 is told as the server says it', async () => {
    const { sent } = emailApi(makePost(1, { status: 'published' }), {
      sends: [sendOf()],
      sendReply: () =>
        HttpResponse.json(
          { success: false, error: 'conflict', message: 'This post was sent to this newsletter already' },
          { status: 409 },
        ),
    });
    const user = userEvent.setup();
    renderApp('/dashboard/posts/edit/p1', { session: as('editor') });
    const panel = await card();
    const sends = await panel.findByRole('list', { name: 'Sends of this post' });
    expect(within(sends).getByText('Sent')).toBeInTheDocument();
    expect(within(sends).getByText(/2 members/)).toBeInTheDocument();
    await user.click(panel.getByRole('button', { name: 'Send by email' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Send by email' }));
    const weekly = within(dialog.getByLabelText('Newsletter')).getByRole('option', { name: 'Weekly (2 members): sent already' });
    expect(weekly).toBeDisabled();
    // Another send of the same post reached the server meanwhile: its 409.
    await within(dialog.getByLabelText('Recipients')).findByRole('option', { name: /VIP/ }); // the labels have loaded
    await user.selectOptions(dialog.getByLabelText('Recipients'), 'VIP');
    await user.click(await dialog.findByRole('button', { name: 'Send to 1 member' }));
    expect(await screen.findByText('This post was sent to this newsletter already')).toBeInTheDocument();
    expect(sent).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: 'Send by email' })).toBeInTheDocument();
  });

  it("a send past the plan's emails: the server's message with the way to Settings → Usage", async () => {
    emailApi(makePost(1, { status: 'published' }), { sendReply: () => HttpResponse.json(PLAN_LIMIT, { status: 403 }) });
    const user = userEvent.setup();
    renderApp('/dashboard/posts/edit/p1', { session: signedIn() });
    await user.click(await (await card()).findByRole('button', { name: 'Send by email' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Send by email' }));
    await user.selectOptions(dialog.getByLabelText('Newsletter'), 'nl-2');
    await user.click(await dialog.findByRole('button', { name: 'Send to 2 members' }));
    const message = await screen.findByText(/Your plan allows 10000 newsletter emails a month\./);
    const toast = message.closest('li')!;
    expect(within(toast).getByRole('link', { name: 'See your plan and usage' })).toHaveAttribute('href', '/dashboard/settings#usage');
    expect(screen.queryByText('Could not send the post')).not.toBeInTheDocument();
  });

  it('a draft: no Send by email, and a test email goes to the signed-in user', async () => {
    const { sent } = emailApi(makePost(1, { status: 'draft', isScheduled: false }));
    const user = userEvent.setup();
    renderApp('/dashboard/posts/edit/p1', { session: as('editor') });
    const panel = await card();
    expect(panel.getByText('Publish or schedule this post to send it by email. A test email works for drafts too.')).toBeInTheDocument();
    expect(panel.queryByRole('button', { name: 'Send by email' })).not.toBeInTheDocument();
    await user.click(await panel.findByRole('button', { name: 'Send a test email' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Send a test email' }));
    const from = dialog.getByLabelText('As sent by');
    expect(within(from).getAllByRole('option').map((o) => o.textContent)).toEqual(['Newsletter', 'Weekly']);
    await user.selectOptions(from, 'Weekly');
    expect(dialog.getByText(/to your own address/)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Send test email' }));
    expect(await screen.findByText('A test email is on its way to alice@x.test')).toBeInTheDocument();
    expect(sent).toEqual([{ path: 'test', body: { newsletterId: 'nl-2' } }]);
  });

  it('only editors and admins have it; never on a page', async () => {
    emailApi(makePost(1, { status: 'draft', author: { id: 'u-author', username: 'author' } }));
    const author = renderApp('/dashboard/posts/edit/p1', { session: as('author') });
    await screen.findByRole('combobox', { name: 'Visibility' });
    expect(screen.queryByTestId('email-newsletter')).not.toBeInTheDocument();
    author.unmount();
    server.use(
      http.get('*/api/pages/p1', () => HttpResponse.json({ success: true, post: { ...makePost(1, { status: 'published', categories: [] }), content: '<p>x</p>' } })),
      http.get('*/api/pages/p1/autosave', () => HttpResponse.json({ success: true, autosave: null })),
      http.get('*/api/pages/p1/preview-links', () => HttpResponse.json({ success: true, links: [] })),
      http.get('*/api/pages/p1/translations', () => HttpResponse.json({ success: true, translations: [] })),
    );
    renderApp('/dashboard/pages/p1', { session: as('editor') });
    await screen.findByRole('combobox', { name: 'Visibility' });
    await screen.findByRole('heading', { name: 'History' });
    expect(screen.queryByTestId('email-newsletter')).not.toBeInTheDocument();
  });
});
