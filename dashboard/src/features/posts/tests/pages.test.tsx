import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { Role } from '@/lib/session';
import { baseHandlers, makePost, postListReply } from '@/test/fixtures';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

vi.mock('@/components/editor/CkEditorField', () => import('./editorMock'));

const as = (role: Role, userId = `u-${role}`) => signedIn({ userId, username: role, role });

function makePage(i: number, extra: Record<string, unknown> = {}) {
  return makePost(i, { id: `g${i}`, title: `Page number ${i}`, slug: `page-number-${i}`, categories: [], tags: [], ...extra });
}

/** The pages API: two drafts (one by the signed-in author, one by someone else) and a published
 *  page; records what the dashboard asks and sends. */
function pagesApi() {
  const asked: URLSearchParams[] = [];
  const sent: { method: string; path: string; body?: unknown }[] = [];
  let pages = [
    makePage(1, { status: 'draft', author: { id: 'u-author', username: 'author' } }),
    makePage(2, { status: 'draft', author: { id: 'u-other', username: 'other' } }),
    makePage(3, { status: 'published', author: { id: 'u-other', username: 'other' } }),
  ];
  const full = (page: ReturnType<typeof makePage>) => ({
    ...page,
    content: '<p>About us</p>',
    updatedAt: '2024-05-02T10:00:00Z',
    metaTitle: page.title,
    metaDescription: 'Who we are',
    canonicalUrl: '',
    focusKeyword: '',
    customSlug: page.slug,
    allowIndexing: true,
    isScheduled: false,
    language: 'en',
    translations: [],
  });
  server.use(
    ...baseHandlers,
    http.get('*/api/posts', () => HttpResponse.json(postListReply([]))),
    http.get('*/api/pages', ({ request }) => {
      const q = new URL(request.url).searchParams;
      asked.push(q);
      const status = q.get('status');
      const search = q.get('search')?.toLowerCase() ?? '';
      const shown = pages
        .filter((p) => status === 'all' || p.status === status)
        .filter((p) => !search || p.title.toLowerCase().includes(search));
      return HttpResponse.json(postListReply(shown));
    }),
    http.get('*/api/pages/:id', ({ params }) => {
      const page = pages.find((p) => p.id === params.id);
      return page
        ? HttpResponse.json({ success: true, post: full(page) })
        : HttpResponse.json({ success: false, error: 'not_found', message: 'Page not found' }, { status: 404 });
    }),
    http.get('*/api/pages/:id/autosave', () => HttpResponse.json({ success: true, autosave: null })),
    http.put('*/api/pages/:id/autosave', async ({ params, request }) => {
      sent.push({ method: 'PUT', path: `pages/${params.id}/autosave`, body: await request.json() });
      return HttpResponse.json({ success: true, autosave: null });
    }),
    http.get('*/api/pages/:id/preview-links', () => HttpResponse.json({ success: true, links: [] })),
    http.post('*/api/pages/upload', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      sent.push({ method: 'POST', path: 'pages/upload', body });
      const page = makePage(9, { title: body.postTitle, status: body.postStatus, author: { id: 'u-1', username: 'alice' } });
      pages = [page, ...pages];
      return HttpResponse.json({ success: true, message: 'Page created successfully', post: full(page) }, { status: 201 });
    }),
    http.put('*/api/pages/:id', async ({ params, request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      sent.push({ method: 'PUT', path: `pages/${params.id}`, body });
      pages = pages.map((p) => (p.id === params.id ? { ...p, title: String(body.title ?? p.title) } : p));
      return HttpResponse.json({ success: true, message: 'Page updated successfully', post: full(pages.find((p) => p.id === params.id)!) });
    }),
    http.delete('*/api/pages/:id', ({ params }) => {
      sent.push({ method: 'DELETE', path: `pages/${params.id}` });
      pages = pages.filter((p) => p.id !== params.id);
      return HttpResponse.json({ success: true, message: 'Page deleted successfully' });
    }),
  );
  return { asked, sent };
}

async function menuItems(title: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: `Actions for ${title}` }));
  const items = screen.getAllByRole('menuitem').map((i) => i.textContent);
  await user.keyboard('{Escape}');
  return items;
}

describe('pages', () => {
  it('are beside Posts in the navigation; the list asks /api/pages, has no categories and searches itself', async () => {
    const { asked } = pagesApi();
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard', { session: signedIn() });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const links = within(nav).getAllByRole('link').map((a) => a.textContent);
    expect(links.indexOf('Pages')).toBe(links.indexOf('Posts') + 1);
    await user.click(within(nav).getByRole('link', { name: 'Pages' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/pages'));
    expect(await screen.findByRole('heading', { name: 'Pages', level: 1 })).toBeInTheDocument();
    const link = await screen.findByRole('link', { name: 'Page number 3' });
    expect(link).toHaveAttribute('href', '/dashboard/pages/g3');
    expect(asked[0].get('status')).toBe('published');
    expect(screen.queryByRole('columnheader', { name: 'Categories' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Add Page/ })).toHaveAttribute('href', '/dashboard/pages/new');
    // The header's search box searches posts: the page list has its own.
    expect(screen.queryByRole('combobox', { name: 'Search' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'All Pages' }));
    await screen.findByRole('link', { name: 'Page number 1' });
    await user.type(screen.getByRole('searchbox', { name: 'Search pages' }), 'number 2');
    await waitFor(() => expect(asked.at(-1)?.get('search')).toBe('number 2'));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Page number 1' })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Page number 2' })).toBeInTheDocument();
    expect(router.state.location.search).toContain('q=number+2');
    await user.clear(screen.getByRole('searchbox', { name: 'Search pages' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search pages' }), 'nothing like it');
    expect(await screen.findByText('No pages match "nothing like it".')).toBeInTheDocument();
  });

  it('a new page needs no category; it is created through /api/pages and published', async () => {
    const { sent } = pagesApi();
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/pages/new', { session: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Create New Page' })).toBeInTheDocument();
    const form = document.querySelector('form.post-form') as HTMLElement;
    expect(within(form).queryByText('Categories')).not.toBeInTheDocument();
    expect(within(form).queryByRole('checkbox', { name: 'News' })).not.toBeInTheDocument();
    expect(within(form).getByRole('checkbox', { name: 'react' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Title'), 'About us');
    await user.tab();
    await user.type(await screen.findByLabelText('Rich text'), '<p>Who we are</p>');
    await user.type(screen.getByLabelText('Excerpt'), 'The company');
    await user.selectOptions(screen.getByLabelText('Status'), 'published');
    await user.click(screen.getByRole('button', { name: /Select Featured Image/ }));
    await user.click(await screen.findByRole('button', { name: 'hero.png' }));
    await user.click(screen.getByRole('tab', { name: 'SEO' }));
    await user.type(screen.getByLabelText('SEO Description'), 'Who we are');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText('Page created successfully')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/pages'));
    const created = sent.find((s) => s.path === 'pages/upload');
    expect(created?.body).toMatchObject({ postTitle: 'About us', customSlug: 'about-us', postStatus: 'published', categories: [] });
    expect(await screen.findByRole('link', { name: 'About us' })).toHaveAttribute('href', '/dashboard/pages/g9');
  });

  it('editing saves through /api/pages/{id}; the draft copy is the page’s', async () => {
    const { sent } = pagesApi();
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/pages/g3', { session: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Edit Page: Page number 3' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View history' })).toHaveAttribute('href', '/dashboard/pages/g3/history');
    await user.clear(screen.getByLabelText('Title'));
    await user.type(screen.getByLabelText('Title'), 'Contact');
    await waitFor(() => expect(sent.some((s) => s.path === 'pages/g3/autosave')).toBe(true), { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Page updated successfully')).toBeInTheDocument();
    expect(sent.find((s) => s.method === 'PUT' && s.path === 'pages/g3')?.body).toMatchObject({ title: 'Contact', status: 'published' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/pages'));
  });

  it('a page that does not exist says so, with the way back to the pages', async () => {
    pagesApi();
    renderApp('/dashboard/pages/nope', { session: signedIn() });
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back to Pages/ })).toHaveAttribute('href', '/dashboard/pages');
  });

  it('deleting a page asks first and deletes it through /api/pages/{id}', async () => {
    const { sent } = pagesApi();
    const user = userEvent.setup();
    renderApp('/dashboard/pages', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: 'Actions for Page number 3' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Are you sure you want to delete this page?' });
    expect(dialog).toHaveTextContent('permanently delete the page');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Page deleted successfully')).toBeInTheDocument();
    expect(sent.some((s) => s.method === 'DELETE' && s.path === 'pages/g3')).toBe(true);
    expect(await screen.findByText('No pages found. Create your first page!')).toBeInTheDocument();
  });
});

describe('pages by role, as for posts', () => {
  it('viewer: no Add Page; rows only offer View; the page opens read only', async () => {
    pagesApi();
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/pages?status=all', { session: as('viewer') });
    await screen.findByRole('link', { name: 'Page number 1' });
    await waitFor(() => expect(screen.queryByRole('link', { name: /Add Page/ })).not.toBeInTheDocument());
    expect(await menuItems('Page number 1')).toEqual(['View']);
    await user.click(screen.getByRole('link', { name: 'Page number 1' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/pages/g1'));
    expect(await screen.findByText('Your role can read this page, not change it')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Save draft|Update|Publish/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to pages' })).toHaveAttribute('href', '/dashboard/pages');
  });

  it('author: Add Page; Edit and Delete on their own draft only; another writer’s page is read only', async () => {
    pagesApi();
    renderApp('/dashboard/pages?status=all', { session: as('author') });
    expect(await screen.findByRole('link', { name: /Add Page/ })).toBeInTheDocument();
    expect(await menuItems('Page number 1')).toEqual(['Edit', 'Delete']);
    expect(await menuItems('Page number 2')).toEqual(['View']);
    expect(await menuItems('Page number 3')).toEqual(['View']);
  });

  it('author: the statuses are Draft and Submit for review', async () => {
    pagesApi();
    renderApp('/dashboard/pages/g1', { session: as('author') });
    const status = await screen.findByLabelText('Status');
    expect(within(status).getAllByRole('option').map((o) => o.textContent)).toEqual(['Draft', 'Submit for review']);
  });

  it('editor: everything, with the Waiting for review filter', async () => {
    pagesApi();
    renderApp('/dashboard/pages?status=all', { session: as('editor') });
    expect(await screen.findByRole('link', { name: /Add Page/ })).toBeInTheDocument();
    expect(await menuItems('Page number 2')).toEqual(['Edit', 'Delete']);
    expect(await menuItems('Page number 3')).toEqual(['Edit', 'Delete']);
    expect(screen.getByRole('button', { name: 'Waiting for review' })).toBeInTheDocument();
  });
});
