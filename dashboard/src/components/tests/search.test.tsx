import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { baseHandlers, postListReply } from '@/test/fixtures';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

const RESULTS = {
  posts: [
    {
      id: 'p9',
      title: 'Getting started with Django',
      slug: 'getting-started-with-django',
      excerpt: 'A first look at Django.',
      status: 'draft',
      author: { username: 'alice' },
      publishedAt: '2024-03-01T00:00:00Z',
    },
  ],
  categories: [{ id: 'c2', name: 'Guides', slug: 'guides', description: 'How-to guides', postCount: 8 }],
  tags: [{ id: 't2', name: 'django', slug: 'django', postCount: 5 }],
};

function recordSearches(reply: (url: URL) => unknown = () => ({ success: true, results: RESULTS })) {
  const calls: URL[] = [];
  server.use(
    ...baseHandlers,
    http.get('*/api/search', ({ request }) => {
      const url = new URL(request.url);
      calls.push(url);
      return HttpResponse.json(reply(url) as Record<string, unknown>);
    }),
  );
  return calls;
}

async function openDashboard() {
  const app = renderApp('/dashboard', { session: signedIn() });
  await screen.findByRole('heading', { name: 'Dashboard' });
  // The header renders the box twice (desktop and small screens); use the first.
  const input = screen.getAllByRole('combobox', { name: 'Search' })[0];
  return { ...app, input };
}

describe('search box', () => {
  it('has the default placeholder', async () => {
    recordSearches();
    const { input } = await openDashboard();
    expect(input).toHaveAttribute('placeholder', 'Search posts, categories, and tags...');
  });

  it('does not search below two characters', async () => {
    const calls = recordSearches();
    const user = userEvent.setup();
    const { input } = await openDashboard();
    await user.type(input, 'd');
    await new Promise((r) => setTimeout(r, 600));
    expect(calls).toHaveLength(0);
    expect(screen.queryByRole('listbox', { name: 'Search results' })).not.toBeInTheDocument();
  });

  it('waits 300 ms after the last keystroke and sends one request for the final text', async () => {
    const calls = recordSearches();
    const { input } = await openDashboard();
    // Four quick keystrokes, no pause between them.
    for (const value of ['d', 'dj', 'dja', 'djan']) fireEvent.change(input, { target: { value } });
    expect(calls).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 150));
    expect(calls).toHaveLength(0);
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].searchParams.get('q')).toBe('djan');
    expect(calls[0].searchParams.get('types')).toBe('posts,categories,tags');
    await new Promise((r) => setTimeout(r, 400));
    expect(calls).toHaveLength(1);
  });

  it('shows result rows and opens a post by slug', async () => {
    recordSearches();
    const user = userEvent.setup();
    const { input, router } = await openDashboard();
    await user.type(input, 'django');
    const list = await screen.findByRole('listbox', { name: 'Search results' });
    const post = await within(list).findByRole('option', { name: /Getting started with Django/ });
    expect(within(post).getByText('Post')).toBeInTheDocument();
    expect(within(post).getByText('Draft')).toBeInTheDocument();
    expect(within(post).getByText('A first look at Django.')).toBeInTheDocument();
    expect(within(post).getByText('By alice')).toBeInTheDocument();
    expect(within(list).getByRole('option', { name: /Guides/ })).toHaveTextContent('8 posts');
    expect(within(list).getByRole('option', { name: /^django/ })).toHaveTextContent('5 posts');
    await user.click(post);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/posts/getting-started-with-django'));
  });

  it('category and tag results open their edit routes', async () => {
    recordSearches();
    const user = userEvent.setup();
    const { input, router } = await openDashboard();
    await user.type(input, 'guides');
    await user.click(await screen.findByRole('option', { name: /Guides/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/categories/edit/c2'));
  });

  it('shows the empty texts', async () => {
    recordSearches(() => ({ success: true, results: { posts: [], categories: [], tags: [] } }));
    const user = userEvent.setup();
    const { input } = await openDashboard();
    await user.type(input, 'zzz');
    expect(await screen.findByText('No results found for "zzz"')).toBeInTheDocument();
    expect(screen.getByText('Try adjusting your search terms or filters')).toBeInTheDocument();
  });

  it('filters: Content Type limits the types, post filters only for posts, Clear All resets', async () => {
    const calls = recordSearches();
    const user = userEvent.setup();
    const { input } = await openDashboard();
    await user.click(screen.getAllByRole('button', { name: 'Search filters' })[0]);
    const popover = screen.getByRole('dialog', { name: 'Search Filters' });
    const type = within(popover).getByLabelText('Content Type');
    expect(within(type).getAllByRole('option').map((o) => o.textContent)).toEqual(['All Types', 'Posts', 'Categories', 'Tags']);
    await user.selectOptions(within(popover).getByLabelText('Post Status'), 'published');
    await user.selectOptions(within(popover).getByLabelText('Date Range'), 'week');
    await user.type(input, 'dj');
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].searchParams.get('status')).toBe('published');
    expect(calls[0].searchParams.get('dateRange')).toBe('week');

    await user.click(screen.getAllByRole('button', { name: 'Search filters' })[0]);
    const again = screen.getByRole('dialog', { name: 'Search Filters' });
    await user.selectOptions(within(again).getByLabelText('Content Type'), 'categories');
    expect(within(again).queryByLabelText('Post Status')).not.toBeInTheDocument();
    expect(within(again).queryByLabelText('Date Range')).not.toBeInTheDocument();
    await waitFor(() => expect(calls.at(-1)!.searchParams.get('types')).toBe('categories'));
    expect(calls.at(-1)!.searchParams.get('status')).toBeNull();

    await user.click(within(again).getByRole('button', { name: 'Clear All' }));
    expect(within(again).getByLabelText('Content Type')).toHaveValue('all');
    expect(within(again).getByLabelText('Post Status')).toHaveValue('all');
  });

  it('a failed search shows the toast', async () => {
    recordSearches();
    server.use(http.get('*/api/search', () => HttpResponse.json({ success: false, message: 'x', error: 'bad' }, { status: 400 })));
    const user = userEvent.setup();
    const { input } = await openDashboard();
    await user.type(input, 'boom');
    expect(await screen.findByText('Search failed. Please try again.')).toBeInTheDocument();
  });

  it('the posts-only variant opens the edit route and has no type filter', async () => {
    recordSearches();
    server.use(http.get('*/api/posts', () => HttpResponse.json(postListReply([]))));
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/posts', { session: signedIn() });
    const input = (await screen.findAllByRole('combobox', { name: 'Search' }))[0];
    await user.click(screen.getAllByRole('button', { name: 'Search filters' })[0]);
    expect(screen.queryByLabelText('Content Type')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Post Status')).toBeInTheDocument();
    await user.type(input, 'django');
    await user.click(await screen.findByRole('option', { name: /Getting started with Django/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/posts/edit/p9'));
  });
});
