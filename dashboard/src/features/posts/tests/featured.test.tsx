import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { Role } from '@/lib/session';
import { baseHandlers, makePost, postListReply } from '@/test/fixtures';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';
import { toCreatePayload, toFormValues } from '../payload';
import { compareSnapshots } from '../revisionDiff';
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

describe('featured: the editor', () => {
  it('a star toggle, not pressed for a post not featured; saved untouched, the mark is not sent', async () => {
    const sent = editApi(makePost(1, { featured: false }));
    const user = userEvent.setup();
    renderApp('/dashboard/posts/edit/p1', { session: signedIn() });
    const star = await screen.findByRole('button', { name: 'Feature this post' });
    expect(star).toHaveAttribute('aria-pressed', 'false');
    // Saved untouched: the mark is not sent (the server keeps it).
    await user.click(screen.getByRole('button', { name: SAVE }));
    await screen.findByText('Post updated successfully');
    expect(sent[0]).not.toHaveProperty('featured');
  });

  it('featuring an unfeatured post and unfeaturing a featured one', async () => {
    let sent = editApi(makePost(1, { featured: false }));
    const user = userEvent.setup();
    const first = renderApp('/dashboard/posts/edit/p1', { session: signedIn() });
    const star = await screen.findByRole('button', { name: 'Feature this post' });
    await user.click(star);
    expect(star).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText('Featured: websites that ask for featured posts list it.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: SAVE }));
    await screen.findByText('Post updated successfully');
    expect(sent[0].featured).toBe(true);
    first.unmount();

    sent = editApi(makePost(1, { featured: true }));
    renderApp('/dashboard/posts/edit/p1', { session: signedIn() });
    const pressed = await screen.findByRole('button', { name: 'Feature this post', pressed: true });
    // By keyboard: Space on the focused button.
    pressed.focus();
    await user.keyboard(' ');
    expect(pressed).toHaveAttribute('aria-pressed', 'false');
    await user.click(screen.getByRole('button', { name: SAVE }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0].featured).toBe(false);
  });

  it('a new post featured sends featured: true; left alone, nothing', () => {
    const values: PostFormValues = {
      title: 'T', content: '<p>x</p>', excerpt: 'e', status: 'draft', categories: ['c1'], tags: [],
      featuredImage: { id: 'm1', url: 'u' }, slug: '', seoTitle: '', seoDescription: '', focusKeyword: '',
      canonicalUrl: '', publishDate: '2024-05-01', videoId: '', featured: false, visibility: 'public',
    };
    expect(toCreatePayload(values)).not.toHaveProperty('featured');
    expect(toCreatePayload({ ...values, featured: true }).featured).toBe(true);
    expect(toFormValues(makePost(1, { featured: true }) as never).featured).toBe(true);
    expect(toFormValues(makePost(1) as never).featured).toBe(false);
  });

  it('a page has "Feature this page"', async () => {
    const sent = editApi(makePost(1, { featured: false, categories: [] }), 'pages');
    const user = userEvent.setup();
    renderApp('/dashboard/pages/p1', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: 'Feature this page' }));
    await user.click(screen.getByRole('button', { name: SAVE }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0].featured).toBe(true);
  });

  it('whoever may not edit the post may not feature it: a viewer, an author on a published post', async () => {
    editApi(makePost(1, { featured: true, status: 'published' }));
    const viewer = renderApp('/dashboard/posts/edit/p1', { session: as('viewer') });
    expect(await screen.findByRole('button', { name: 'Feature this post', pressed: true })).toBeDisabled();
    viewer.unmount();
    renderApp('/dashboard/posts/edit/p1', { session: as('author', 'u-1') });
    expect(await screen.findByText('Your role can read this post, not change it')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Feature this post' })).toBeDisabled();
  });

  it('an author features their own draft', async () => {
    const sent = editApi(makePost(1, { status: 'draft', featured: false, author: { id: 'u-author', username: 'author' } }));
    const user = userEvent.setup();
    renderApp('/dashboard/posts/edit/p1', { session: as('author') });
    await user.click(await screen.findByRole('button', { name: 'Feature this post' }));
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0].featured).toBe(true);
  });

  it('the history and conflict comparisons name a change of the mark', () => {
    const diffs = compareSnapshots({ featured: false, title: 'A' }, { featured: true, title: 'A' });
    expect(diffs.map((d) => [d.label, d.parts.map((p) => p.value)])).toEqual([['Featured', ['No', 'Yes']]]);
  });
});

describe('featured: the list', () => {
  it('a featured post shows a star with the word Featured; the others none', async () => {
    server.use(
      ...baseHandlers,
      http.get('*/api/posts', () => HttpResponse.json(postListReply([makePost(1, { featured: true }), makePost(2, { featured: false })]))),
    );
    renderApp('/dashboard/posts', { session: signedIn() });
    const featuredRow = (await screen.findByRole('link', { name: 'Post number 1' })).closest('tr')!;
    expect(within(featuredRow).getByText('Featured', { selector: '.badge' })).toBeInTheDocument();
    const otherRow = screen.getByRole('link', { name: 'Post number 2' }).closest('tr')!;
    expect(within(otherRow).queryByText('Featured')).not.toBeInTheDocument();
  });
});
