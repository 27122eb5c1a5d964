import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { baseHandlers, makePost, postListReply } from '@/test/fixtures';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

/** A posts endpoint over `total` posts that records each query. */
function postsApi(total: number, status = 'published') {
  const calls: URLSearchParams[] = [];
  let remaining = total;
  server.use(
    ...baseHandlers,
    http.get('*/api/posts', ({ request }) => {
      const q = new URL(request.url).searchParams;
      calls.push(q);
      const page = Number(q.get('page'));
      const limit = Number(q.get('limit'));
      const start = (page - 1) * limit;
      const posts = Array.from({ length: Math.max(0, Math.min(limit, remaining - start)) }, (_, i) =>
        makePost(start + i + 1, { status }),
      );
      return HttpResponse.json({
        success: true,
        posts,
        page,
        limit,
        totalPosts: remaining,
        pagination: { total: remaining, totalPages: Math.ceil(remaining / limit), currentPage: page, limit },
      });
    }),
    http.delete('*/api/posts/:id', () => {
      remaining -= 1;
      return HttpResponse.json({ success: true, message: 'Post deleted successfully' });
    }),
  );
  return calls;
}

const pageButtons = () =>
  within(screen.getByRole('navigation', { name: 'Pagination' }))
    .getAllByRole('button')
    .map((b) => b.getAttribute('aria-label'));

describe('posts list', () => {
  it('defaults to published, page 1, 10 per page, with excerpt, category badges and date', async () => {
    const calls = postsApi(3);
    renderApp('/dashboard/posts', { session: signedIn() });
    const row = (await screen.findByRole('link', { name: 'Post number 1' })).closest('tr')!;
    expect(within(row).getByText('Excerpt 1')).toBeInTheDocument();
    expect(within(row).getByText('News')).toBeInTheDocument();
    expect(within(row).getByText('May 2, 2024')).toBeInTheDocument();
    expect(calls[0].get('status')).toBe('published');
    expect(calls[0].get('page')).toBe('1');
    expect(calls[0].get('limit')).toBe('10');
    expect(screen.getByRole('button', { name: 'Published' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.queryByRole('button', { name: 'Archived' })).not.toBeInTheDocument();
    // 3 posts fit on one page: no pagination.
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  it('numbered pagination with ellipses; changing the filter goes back to page 1', async () => {
    const calls = postsApi(95);
    const user = userEvent.setup();
    renderApp('/dashboard/posts', { session: signedIn() });
    await screen.findByRole('link', { name: 'Post number 1' });
    expect(pageButtons()).toEqual(['Previous page', 'Page 1', 'Page 2', 'Page 3', 'Page 4', 'Page 10', 'Next page']);
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Page 4' }));
    await screen.findByRole('link', { name: 'Post number 31' });
    expect(pageButtons()).toEqual(['Previous page', 'Page 1', 'Page 3', 'Page 4', 'Page 5', 'Page 10', 'Next page']);
    expect(screen.getByRole('button', { name: 'Page 4' })).toHaveAttribute('aria-current', 'page');
    await user.click(screen.getByRole('button', { name: 'Page 10' }));
    await screen.findByRole('link', { name: 'Post number 91' });
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Drafts' }));
    await waitFor(() => expect(calls.at(-1)!.get('status')).toBe('draft'));
    expect(calls.at(-1)!.get('page')).toBe('1');
    await user.click(screen.getByRole('button', { name: 'All Posts' }));
    await waitFor(() => expect(calls.at(-1)!.get('status')).toBe('all'));
    expect(calls.at(-1)!.get('page')).toBe('1');
  });

  it('row menu: View, Edit and Delete with its confirmation', async () => {
    postsApi(2);
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/posts', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: 'Actions for Post number 2' }));
    expect(screen.getAllByRole('menuitem').map((m) => m.textContent)).toEqual(['View', 'Edit', 'Delete']);
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Are you sure you want to delete this post?' });
    expect(dialog).toHaveTextContent('permanently delete the post and remove all associated data');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Post deleted successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Post number 2' })).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Actions for Post number 1' }));
    await user.click(screen.getByRole('menuitem', { name: 'Edit' }));
    // The navigation commits once the edit screen's code is loaded (its route's loader).
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/posts/edit/p1'));
  });

  it.each([
    [403, 'Forbidden', "You don't have permission to delete this post"],
    [404, 'Post not found', 'This post no longer exists'],
    [409, 'Cannot delete post: it is locked', 'Cannot delete post: it is locked'],
    [500, 'Boom', 'Failed to delete post. Please try again.'],
  ])('a %i on delete shows %j as %j', async (status, message, shown) => {
    postsApi(1);
    server.use(http.delete('*/api/posts/:id', () => HttpResponse.json({ success: false, message, error: 'x' }, { status })));
    const user = userEvent.setup();
    renderApp('/dashboard/posts', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: 'Actions for Post number 1' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(shown)).toBeInTheDocument();
  });

  it('empty state', async () => {
    postsApi(0);
    renderApp('/dashboard/posts', { session: signedIn() });
    expect(await screen.findByText('No posts found. Create your first post!')).toBeInTheDocument();
  });

  it('load error with Try Again', async () => {
    let fail = true;
    server.use(
      ...baseHandlers,
      http.get('*/api/posts', () =>
        fail
          ? HttpResponse.json({ success: false, message: 'nope', error: 'bad_request' }, { status: 400 })
          : HttpResponse.json(postListReply([makePost(1)])),
      ),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/posts', { session: signedIn() });
    expect(await screen.findByText('Error loading posts')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('link', { name: 'Post number 1' })).toBeInTheDocument();
  });

  it('queries are retried once on a server error', async () => {
    let calls = 0;
    server.use(
      ...baseHandlers,
      http.get('*/api/posts', () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json({ success: false, message: 'down', error: 'server_error' }, { status: 503 })
          : HttpResponse.json(postListReply([makePost(1)]));
      }),
    );
    renderApp('/dashboard/posts', { session: signedIn() });
    expect(await screen.findByRole('link', { name: 'Post number 1' })).toBeInTheDocument();
    expect(calls).toBe(2);
  });
});

describe('post detail', () => {
  it('shows every field of the spec', async () => {
    server.use(
      ...baseHandlers,
      http.get('*/api/posts/slug/post-number-1', () =>
        HttpResponse.json(
          makePost(1, {
            content: '<p>Hello <strong>there</strong></p>',
            canonicalUrl: 'https://example.com/original',
            featuredImage: { id: 'm1', spacesKey: 'k', altText: '', link: 'http://img/hero.png' },
          }),
        ),
      ),
    );
    renderApp('/dashboard/posts/post-number-1', { session: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Post number 1' })).toBeInTheDocument();
    expect(screen.getByText(/Published on May 2, 2024/)).toBeInTheDocument();
    expect(screen.getByText('News')).toBeInTheDocument();
    const article = screen.getByRole('article');
    expect(within(article).getByText('alice')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Post number 1' })).toHaveAttribute('src', 'http://img/hero.png');
    expect(screen.getByText('there').tagName).toBe('STRONG');
    expect(screen.getByText('#react')).toBeInTheDocument();
    expect(screen.getByText('Created')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'https://example.com/original' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back to Posts/ })).toHaveAttribute('href', '/dashboard/posts');
    expect(screen.getByRole('link', { name: /Edit Post/ })).toHaveAttribute('href', '/dashboard/posts/edit/p1');
  });

  it('a missing post shows Post Not Found', async () => {
    server.use(
      ...baseHandlers,
      http.get('*/api/posts/slug/gone', () => HttpResponse.json({ success: false, message: 'Post not found', error: 'not_found' }, { status: 404 })),
    );
    renderApp('/dashboard/posts/gone', { session: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Post Not Found' })).toBeInTheDocument();
  });
});
