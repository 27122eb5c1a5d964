import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { Role } from '@/lib/session';
import { baseHandlers, makePost, postListReply } from '@/test/fixtures';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';
import { SERVER_FIELD, toCreatePayload, toFormValues } from '../payload';
import { compareSnapshots, snapshotOfForm, snapshotOfPost } from '../revisionDiff';
import type { PostFormValues } from '../schemas';

vi.mock('@/components/editor/CkEditorField', () => import('./editorMock'));

const as = (role: Role, userId = `u-${role}`) => signedIn({ userId, username: role, role });
const SAVE = /^(Save draft|Publish|Schedule|Update|Save)$/;

/** One post (or page) `p1` to edit; returns the bodies of its saves. */
function editApi(post: ReturnType<typeof makePost>, collection: 'posts' | 'pages' = 'posts') {
  const sent: Record<string, unknown>[] = [];
  server.use(
    ...baseHandlers,
    http.get(`*/api/${collection}/p1`, () => HttpResponse.json({ success: true, post: { ...post, content: '<p>Body</p>' } })),
    http.put(`*/api/${collection}/p1`, async ({ request }) => {
      sent.push((await request.json()) as Record<string, unknown>);
      return HttpResponse.json({ success: true, message: 'Post updated successfully', post });
    }),
    http.get(`*/api/${collection}`, () => HttpResponse.json(postListReply([]))),
    http.get(`*/api/${collection}/p1/autosave`, () => HttpResponse.json({ success: true, autosave: null })),
    http.put(`*/api/${collection}/p1/autosave`, async ({ request }) =>
      HttpResponse.json({ success: true, autosave: { ...((await request.json()) as object), updatedAt: '2026-11-23T14:02:00.000Z' } }),
    ),
    http.get(`*/api/${collection}/p1/preview-links`, () => HttpResponse.json({ success: true, links: [] })),
    http.get(`*/api/${collection}/p1/translations`, () => HttpResponse.json({ success: true, translations: [] })),
  );
  return sent;
}

const VALUES: PostFormValues = {
  title: 'T', content: '<p>x</p>', excerpt: 'e', status: 'draft', categories: ['c1'], tags: [],
  featuredImage: { id: 'm1', url: 'u' }, slug: '', seoTitle: '', seoDescription: '', focusKeyword: '',
  canonicalUrl: '', publishDate: '2024-05-01', videoId: '', featured: false, visibility: 'public',
};

describe('visibility: the editor', () => {
  it('a Visibility control beside the status and the featured mark, Everyone for a public post; saved untouched, not sent', async () => {
    const sent = editApi(makePost(1, { visibility: 'public' }));
    const user = userEvent.setup();
    renderApp('/dashboard/posts/edit/p1', { session: signedIn() });
    const select = await screen.findByRole('combobox', { name: 'Visibility' });
    expect(select).toHaveValue('public');
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['Everyone', 'Members only']);
    expect(screen.getByText('Everyone reads the post.')).toBeInTheDocument();
    // In the sidebar's first card, with the status and the featured mark.
    const card = select.closest('section')!;
    expect(within(card).getByRole('combobox', { name: 'Status' })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Feature this post' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: SAVE }));
    await screen.findByText('Post updated successfully');
    expect(sent[0]).not.toHaveProperty('visibility');
  });

  it('making a post members-only, and a members-only post public again', async () => {
    let sent = editApi(makePost(1, { visibility: 'public' }));
    const user = userEvent.setup();
    const first = renderApp('/dashboard/posts/edit/p1', { session: signedIn() });
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Visibility' }), 'Members only');
    expect(
      screen.getByText('Everyone sees the title, excerpt and image; only signed-in members read the post.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: SAVE }));
    await screen.findByText('Post updated successfully');
    expect(sent[0].visibility).toBe('members');
    first.unmount();

    sent = editApi(makePost(1, { visibility: 'members' }));
    renderApp('/dashboard/posts/edit/p1', { session: signedIn() });
    const select = await screen.findByRole('combobox', { name: 'Visibility' });
    expect(select).toHaveValue('members');
    await user.selectOptions(select, 'Everyone');
    expect(select).toHaveValue('public');
    await user.click(screen.getByRole('button', { name: SAVE }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0].visibility).toBe('public');
  });

  it('a new post sends visibility: members when members only; left at Everyone, nothing', () => {
    expect(toCreatePayload(VALUES)).not.toHaveProperty('visibility');
    expect(toCreatePayload({ ...VALUES, visibility: 'members' }).visibility).toBe('members');
    expect(toFormValues(makePost(1, { visibility: 'members' }) as never).visibility).toBe('members');
    expect(toFormValues(makePost(1, { visibility: 'public' }) as never).visibility).toBe('public');
    expect(SERVER_FIELD.visibility).toBe('visibility');
  });

  it('the new post screen starts at Everyone', async () => {
    server.use(...baseHandlers, http.get('*/api/posts/autosave', () => HttpResponse.json({ success: true, autosave: null })));
    renderApp('/dashboard/posts/new', { session: signedIn() });
    expect(await screen.findByRole('combobox', { name: 'Visibility' })).toHaveValue('public');
  });

  it('a page has it too, with its own words', async () => {
    const sent = editApi(makePost(1, { visibility: 'public', categories: [] }), 'pages');
    const user = userEvent.setup();
    renderApp('/dashboard/pages/p1', { session: signedIn() });
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Visibility' }), 'members');
    expect(screen.getByText(/only signed-in members read the page\./)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: SAVE }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0].visibility).toBe('members');
  });

  it('whoever may not edit the post may not change it: a viewer, an author on a published post', async () => {
    editApi(makePost(1, { visibility: 'members', status: 'published' }));
    const viewer = renderApp('/dashboard/posts/edit/p1', { session: as('viewer') });
    const select = await screen.findByRole('combobox', { name: 'Visibility' });
    expect(select).toBeDisabled();
    expect(select).toHaveValue('members');
    viewer.unmount();
    renderApp('/dashboard/posts/edit/p1', { session: as('author', 'u-1') });
    expect(await screen.findByText('Your role can read this post, not change it')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Visibility' })).toBeDisabled();
  });

  it('the history and conflict comparisons name a change of it in words', () => {
    const diffs = compareSnapshots({ visibility: 'public', title: 'A' }, { visibility: 'members', title: 'A' });
    expect(diffs.map((d) => [d.label, d.parts.map((p) => p.value)])).toEqual([['Visibility', ['Everyone', 'Members only']]]);
    const post = makePost(1, { visibility: 'members', content: '<p>x</p>' }) as never;
    expect(snapshotOfPost(post).visibility).toBe('members');
    expect(snapshotOfForm({ ...VALUES, visibility: 'members' }, 's').visibility).toBe('members');
    // A slug that happens to be "public" is shown as it is.
    expect(compareSnapshots({ slug: 'public' }, { slug: 'members' }).map((d) => d.parts.map((p) => p.value))).toEqual([
      ['public', 'members'],
    ]);
  });
});

describe('visibility: the list', () => {
  it('a members-only post shows a lock with the words Members only; the others none', async () => {
    server.use(
      ...baseHandlers,
      http.get('*/api/posts', () =>
        HttpResponse.json(postListReply([makePost(1, { visibility: 'members' }), makePost(2, { visibility: 'public' })])),
      ),
    );
    renderApp('/dashboard/posts', { session: signedIn() });
    const lockedRow = (await screen.findByRole('link', { name: 'Post number 1' })).closest('tr')!;
    expect(within(lockedRow).getByText('Members only', { selector: '.badge' })).toBeInTheDocument();
    const otherRow = screen.getByRole('link', { name: 'Post number 2' }).closest('tr')!;
    expect(within(otherRow).queryByText('Members only')).not.toBeInTheDocument();
  });
});
