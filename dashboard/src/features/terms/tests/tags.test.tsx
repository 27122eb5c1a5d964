import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

/** A paged tags endpoint over `count` tags; tag 1 is used by 2 posts. */
function tagsApi(count: number) {
  let tags = Array.from({ length: count }, (_, i) => ({ id: `t${i + 1}`, name: `tag-${i + 1}`, slug: `tag-${i + 1}`, postCount: i === 0 ? 2 : 0 }));
  const calls: URLSearchParams[] = [];
  server.use(
    http.get('*/api/tags', ({ request }) => {
      const q = new URL(request.url).searchParams;
      calls.push(q);
      const page = Number(q.get('page'));
      const limit = Number(q.get('limit'));
      const slice = tags.slice((page - 1) * limit, page * limit);
      return HttpResponse.json({
        success: true,
        tags: slice,
        pagination: { total: tags.length, totalPages: Math.max(1, Math.ceil(tags.length / limit)), currentPage: page, limit },
        total: tags.length,
      });
    }),
    http.delete('*/api/tags/:id', ({ params }) => {
      tags = tags.filter((t) => t.id !== params.id);
      return HttpResponse.json({ success: true, message: 'Tag deleted successfully' });
    }),
  );
  return calls;
}

async function deleteFromMenu(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
  await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
}

describe('tags list', () => {
  it('pages by 10 with the spec columns and window', async () => {
    const calls = tagsApi(95);
    renderApp('/dashboard/tags', { session: signedIn() });
    expect(await screen.findByText('tag-1', { selector: 'strong' })).toBeInTheDocument();
    expect(calls[0].get('limit')).toBe('10');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Slug', 'Posts', 'Actions']);
    const nav = screen.getByRole('navigation', { name: 'Pagination' });
    expect(within(nav).getAllByRole('button').map((b) => b.textContent || b.getAttribute('aria-label'))).toEqual([
      'Previous page',
      '1',
      '2',
      '3',
      '4',
      '10',
      'Next page',
    ]);
  });

  it('Edit goes to the edit route; the client refuses to delete a used tag', async () => {
    tagsApi(3);
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/tags', { session: signedIn() });
    await deleteFromMenu(user, 'tag-1');
    expect(
      await screen.findByText('Cannot delete tag "tag-1". It is used in 2 post(s). Remove the tag from all posts first.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Actions for tag-2' }));
    await user.click(screen.getByRole('menuitem', { name: 'Edit' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/tags/edit/t2'));
  });

  it('confirms with "Delete tag" and goes back a page when the last tag of a page goes', async () => {
    const calls = tagsApi(11);
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/tags?page=2', { session: signedIn() });
    await deleteFromMenu(user, 'tag-11');
    const dialog = screen.getByRole('dialog', { name: 'Delete tag' });
    expect(dialog).toHaveTextContent('removed from all posts');
    expect(dialog).toHaveTextContent('cannot be undone');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Tag deleted successfully')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(calls.at(-1)!.get('page')).toBe('1'));
    expect(await screen.findByText('tag-10', { selector: 'strong' })).toBeInTheDocument();
  });

  it.each([
    ['Cannot delete tag "x": it is currently used in posts', 'tag_in_use', 'Cannot delete tag "x": it is currently used in posts'],
    ['Something else', undefined, 'Failed to delete tag. Please try again.'],
  ])('server refusal %j', async (message, code, shown) => {
    tagsApi(3);
    server.use(http.delete('*/api/tags/:id', () => HttpResponse.json({ success: false, message, error: 'conflict', code }, { status: 409 })));
    const user = userEvent.setup();
    renderApp('/dashboard/tags', { session: signedIn() });
    await deleteFromMenu(user, 'tag-2');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(shown)).toBeInTheDocument();
  });

  it('empty and failure states', async () => {
    tagsApi(0);
    const first = renderApp('/dashboard/tags', { session: signedIn() });
    expect(await screen.findByText('No tags found. Create your first tag!')).toBeInTheDocument();
    first.unmount();
    server.use(http.get('*/api/tags', () => HttpResponse.json({ success: false, message: 'x', error: 'y' }, { status: 400 })));
    renderApp('/dashboard/tags', { session: signedIn() });
    expect(await screen.findByText('Failed to load tags. Please try again.')).toBeInTheDocument();
    expect(await screen.findByText('Error loading tags')).toBeInTheDocument();
  });
});

describe('tag forms', () => {
  it('create: "Create New Tag", name and slug required', async () => {
    let sent: unknown;
    tagsApi(0);
    server.use(
      http.post('*/api/tags/add', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ success: true, message: 'Tag created successfully', tag: { id: 't9', name: 'New', slug: 'new' } }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/tags/new', { session: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Create New Tag' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Description (optional)')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create Tag' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Slug is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Name'), 'Web Dev');
    await user.click(screen.getByRole('button', { name: 'Create Tag' }));
    expect(await screen.findByText('Tag created successfully')).toBeInTheDocument();
    expect(sent).toEqual({ name: 'Web Dev', slug: 'web-dev' });
  });

  it('edit: "Edit Tag: {name}", or "Tag Not Found" with Back to Tags', async () => {
    server.use(
      http.get('*/api/tags/t1', () => HttpResponse.json({ success: true, tag: { id: 't1', name: 'react', slug: 'react', postCount: 1 } })),
      http.get('*/api/tags/nope', () => HttpResponse.json({ success: false, message: 'Tag not found', error: 'not_found' }, { status: 404 })),
    );
    const first = renderApp('/dashboard/tags/edit/t1', { session: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Edit Tag: react' })).toBeInTheDocument();
    first.unmount();
    renderApp('/dashboard/tags/edit/nope', { session: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Tag Not Found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back to Tags/ })).toHaveAttribute('href', '/dashboard/tags');
  });
});
