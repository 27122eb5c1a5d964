import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { Role } from '@/lib/session';
import { baseHandlers, makePost } from '@/test/fixtures';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

vi.mock('@/components/editor/CkEditorField', () => import('./editorMock'));

const as = (role: Role, userId = `u-${role}`) => signedIn({ userId, username: role, role });

/** Two drafts: one of the signed-in author ("u-author"), one of someone else. */
function postsApi() {
  const calls: URLSearchParams[] = [];
  const posts: (ReturnType<typeof makePost> & { reviewRequestedAt?: string | null })[] = [
    makePost(1, { status: 'draft', author: { id: 'u-author', username: 'author' }, reviewRequestedAt: null }),
    makePost(2, { status: 'draft', author: { id: 'u-other', username: 'other' }, reviewRequestedAt: '2024-05-03T10:00:00Z' }),
  ];
  server.use(
    ...baseHandlers,
    http.get('*/api/posts', ({ request }) => {
      const q = new URL(request.url).searchParams;
      calls.push(q);
      const shown = q.get('review') === 'waiting' ? posts.filter((p) => p.reviewRequestedAt) : posts;
      return HttpResponse.json({
        success: true,
        posts: shown,
        page: 1,
        limit: 10,
        totalPosts: shown.length,
        pagination: { total: shown.length, totalPages: 1, currentPage: 1, limit: 10 },
      });
    }),
  );
  return calls;
}

async function menuItems(title: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: `Actions for ${title}` }));
  const items = screen.getAllByRole('menuitem').map((i) => i.textContent);
  await user.keyboard('{Escape}');
  return items;
}

describe('posts list by role', () => {
  it('viewer: no Add Post, rows only offer View, no review filter', async () => {
    postsApi();
    renderApp('/dashboard/posts?status=draft', { session: as('viewer') });
    await screen.findByRole('link', { name: 'Post number 1' });
    await waitFor(() => expect(screen.queryByRole('link', { name: /Add Post/ })).not.toBeInTheDocument());
    expect(await menuItems('Post number 1')).toEqual(['View']);
    expect(screen.queryByRole('button', { name: 'Waiting for review' })).not.toBeInTheDocument();
  });

  it('author: Add Post; Edit and Delete on their own post only', async () => {
    postsApi();
    renderApp('/dashboard/posts?status=draft', { session: as('author') });
    expect(await screen.findByRole('link', { name: /Add Post/ })).toBeInTheDocument();
    expect(await menuItems('Post number 1')).toEqual(['View', 'Edit', 'Delete']);
    expect(await menuItems('Post number 2')).toEqual(['View']);
    expect(screen.queryByRole('button', { name: 'Waiting for review' })).not.toBeInTheDocument();
  });

  it('editor: the Waiting for review filter asks for review=waiting', async () => {
    const calls = postsApi();
    const user = userEvent.setup();
    renderApp('/dashboard/posts?status=draft', { session: as('editor') });
    await screen.findByRole('link', { name: 'Post number 1' });
    expect(await menuItems('Post number 2')).toEqual(['View', 'Edit', 'Delete']);
    await user.click(await screen.findByRole('button', { name: 'Waiting for review' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Post number 1' })).not.toBeInTheDocument());
    expect(calls.at(-1)?.get('review')).toBe('waiting');
    const row = screen.getByRole('link', { name: 'Post number 2' }).closest('tr')!;
    expect(within(row).getByText('Waiting for review', { selector: '.badge' })).toBeInTheDocument();
  });
});

function postApi(post: ReturnType<typeof makePost>) {
  const sent: { put?: unknown; review?: boolean; note?: unknown } = {};
  server.use(
    ...baseHandlers,
    http.get('*/api/posts/p1', () => HttpResponse.json({ success: true, post: { ...post, content: '<p>Body</p>' } })),
    http.put('*/api/posts/p1', async ({ request }) => {
      sent.put = await request.json();
      return HttpResponse.json({ success: true, message: 'Post updated successfully', post });
    }),
    http.post('*/api/posts/p1/review/request', () => {
      sent.review = true;
      return HttpResponse.json({ success: true, message: 'Post submitted for review', post });
    }),
    http.post('*/api/posts/p1/review/return', async ({ request }) => {
      sent.note = await request.json();
      return HttpResponse.json({ success: true, message: 'Post sent back to the writer', post });
    }),
    http.get('*/api/posts', () => HttpResponse.json({ posts: [], page: 1, limit: 10, totalPosts: 0 })),
  );
  return sent;
}

describe('post form by role', () => {
  it('viewer: read-only, no save button', async () => {
    postApi(makePost(1, { status: 'published' }));
    renderApp('/dashboard/posts/edit/p1', { session: as('viewer') });
    expect(await screen.findByRole('heading', { name: 'Post number 1' })).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toBeDisabled();
    expect(screen.getByLabelText('Status')).toBeDisabled();
    expect(screen.getByLabelText('Excerpt')).toBeDisabled();
    expect(screen.queryByRole('button', { name: /Save|Update|Publish|Submit/ })).not.toBeInTheDocument();
    expect(screen.getByText('Your role can read this post, not change it')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to posts' })).toBeInTheDocument();
  });

  it('author: no "Published"; choosing Submit for review saves a draft and asks for review', async () => {
    const sent = postApi(makePost(1, { status: 'draft', author: { id: 'u-author', username: 'author' } }));
    const user = userEvent.setup();
    renderApp('/dashboard/posts/edit/p1', { session: as('author') });
    const status = await screen.findByLabelText('Status');
    expect(within(status).getAllByRole('option').map((o) => o.textContent)).toEqual(['Draft', 'Submit for review']);
    expect(screen.getByRole('button', { name: 'Save draft' })).toBeInTheDocument();
    await user.selectOptions(status, 'review');
    await user.click(screen.getByRole('button', { name: 'Submit for review' }));
    expect(await screen.findByText('Post submitted for review')).toBeInTheDocument();
    expect((sent.put as { status: string }).status).toBe('draft');
    expect(sent.review).toBe(true);
  });

  it("author: a post sent back shows the editor's note", async () => {
    postApi(makePost(1, { status: 'draft', author: { id: 'u-author', username: 'author' }, reviewNote: 'Add a source' }));
    renderApp('/dashboard/posts/edit/p1', { session: as('author') });
    expect(await screen.findByText('Add a source')).toBeInTheDocument();
  });

  it('author: another writer\'s post is read-only', async () => {
    postApi(makePost(1, { status: 'draft', author: { id: 'u-other', username: 'other' } }));
    renderApp('/dashboard/posts/edit/p1', { session: as('author') });
    expect(await screen.findByText('Your role can read this post, not change it')).toBeInTheDocument();
  });

  it('editor: every status; sends a waiting post back with a note', async () => {
    const sent = postApi(makePost(1, { status: 'draft', reviewRequestedAt: '2024-05-03T10:00:00Z' }));
    const user = userEvent.setup();
    renderApp('/dashboard/posts/edit/p1', { session: as('editor') });
    const status = await screen.findByLabelText('Status');
    expect(within(status).getAllByRole('option').map((o) => o.textContent)).toEqual(['Draft', 'Published', 'Archived']);
    expect(screen.getByText(/Waiting for review since/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send back' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send back to the writer' });
    await user.click(within(dialog).getByRole('button', { name: 'Send back' }));
    expect(await within(dialog).findByText('Please write a note for the writer')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Note for the writer'), 'Shorter intro');
    await user.click(within(dialog).getByRole('button', { name: 'Send back' }));
    expect(await screen.findByText('Post sent back to the writer')).toBeInTheDocument();
    expect(sent.note).toEqual({ note: 'Shorter intro' });
  });
});
