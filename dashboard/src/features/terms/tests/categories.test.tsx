import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { nextAutoSlug } from '@/lib/slug';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

const many = Array.from({ length: 7 }, (_, i) => ({
  id: `c${i + 1}`,
  name: `Category ${i + 1}`,
  slug: `category-${i + 1}`,
  description: i === 0 ? 'First one' : '',
  postCount: i === 1 ? 3 : 0,
}));

function listApi(categories = many) {
  server.use(http.get('*/api/categories', () => HttpResponse.json({ success: true, categories })));
}

describe('categories list', () => {
  it('pages five at a time on the client, with the spec columns', async () => {
    listApi();
    const user = userEvent.setup();
    renderApp('/dashboard/categories', { session: signedIn() });
    expect(await screen.findByText('Category 1')).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Slug', 'Description', 'Posts', 'Actions']);
    expect(screen.getAllByRole('row')).toHaveLength(6);
    expect(screen.getByText('First one')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(screen.getByText('Category 6')).toBeInTheDocument();
    expect(screen.queryByText('Category 1')).not.toBeInTheDocument();
    expect(screen.getAllByRole('row')).toHaveLength(3);
  });

  it('refuses on the client to delete a category used by posts', async () => {
    listApi();
    const user = userEvent.setup();
    renderApp('/dashboard/categories', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: 'Delete Category 2' }));
    expect(
      await screen.findByText('Cannot delete category "Category 2". It is used in 3 post(s). Remove the category from all posts first.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it.each([
    ['Cannot delete: category is currently used in posts', 'category_in_use', 'Cannot delete category. It is currently being used in posts.'],
    ['Database is down', undefined, 'Failed to delete category: Database is down'],
  ])('maps the server refusal %j', async (message, code, shown) => {
    listApi();
    server.use(
      http.delete('*/api/categories/c1', () => HttpResponse.json({ success: false, message, error: 'conflict', code }, { status: 409 })),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/categories', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: 'Delete Category 1' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Delete category' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(shown)).toBeInTheDocument();
  });

  it('deletes after confirmation', async () => {
    let list = many;
    server.use(
      http.get('*/api/categories', () => HttpResponse.json({ success: true, categories: list })),
      http.delete('*/api/categories/c1', () => {
        list = many.slice(1);
        return HttpResponse.json({ success: true, message: 'Category deleted successfully' });
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/categories', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: 'Delete Category 1' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Category deleted successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Category 1')).not.toBeInTheDocument());
  });

  it('load failure', async () => {
    server.use(http.get('*/api/categories', () => HttpResponse.json({ success: false, message: 'x', error: 'y' }, { status: 400 })));
    renderApp('/dashboard/categories', { session: signedIn() });
    expect(await screen.findByText('Failed to load categories')).toBeInTheDocument();
  });
});

describe('category form', () => {
  it('requires name and slug; the slug follows the name until edited', async () => {
    let sent: unknown;
    listApi();
    server.use(
      http.post('*/api/categories/add', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ success: true, message: 'Category created successfully', category: many[0] }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/categories/new', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: 'Create Category' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Slug is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Name'), 'Tips & Tricks');
    expect(screen.getByLabelText('Slug')).toHaveValue('tips-tricks');
    await user.clear(screen.getByLabelText('Slug'));
    await user.type(screen.getByLabelText('Slug'), 'custom');
    await user.type(screen.getByLabelText('Name'), ' 2');
    expect(screen.getByLabelText('Slug')).toHaveValue('custom');
    await user.click(screen.getByRole('button', { name: 'Create Category' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/categories'));
    expect(sent).toEqual({ name: 'Tips & Tricks 2', slug: 'custom' });
  });

  it('edit is titled with the category; a failed load returns to the list', async () => {
    listApi();
    server.use(
      http.get('*/api/categories/c1', () => HttpResponse.json({ success: true, category: many[0] })),
      http.get('*/api/categories/zzz', () => HttpResponse.json({ success: false, message: 'Not found', error: 'not_found' }, { status: 404 })),
    );
    const first = renderApp('/dashboard/categories/edit/c1', { session: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Edit Category: Category 1' })).toBeInTheDocument();
    expect(screen.getByLabelText('Description (optional)')).toHaveValue('First one');
    first.unmount();
    const { router } = renderApp('/dashboard/categories/edit/zzz', { session: signedIn() });
    expect(await screen.findByText('Failed to load category.')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/categories'));
  });
});

describe('auto slug rule', () => {
  it('follows while empty or equal to the derived slug', () => {
    expect(nextAutoSlug('', 'Hello', '')).toBe('hello');
    expect(nextAutoSlug('Hello', 'Hello World', 'hello')).toBe('hello-world');
    expect(nextAutoSlug('Hello', 'Hello World', 'my-slug')).toBe('my-slug');
  });
});
