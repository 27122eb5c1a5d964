import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { LANGUAGES_EN_FR_DE } from '@/test/fixtures';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

const NEWS = {
  id: 'c1',
  name: 'News',
  slug: 'news',
  description: '',
  postCount: 2,
  translations: { fr: { name: 'Actualités', slug: 'actualites' }, de: { name: 'Neuigkeiten', slug: 'neu' } },
};

function multilingual() {
  server.use(
    http.get('*/api/client/languages', () => HttpResponse.json(LANGUAGES_EN_FR_DE)),
    http.get('*/api/categories', () => HttpResponse.json({ success: true, categories: [NEWS] })),
    http.get('*/api/tags', () => HttpResponse.json({ success: true, tags: [], pagination: { total: 0, totalPages: 1, currentPage: 1, limit: 10 }, total: 0 })),
  );
}

describe('category and tag names per language', () => {
  it('a new category takes a name and slug per language; only the names given are sent', async () => {
    let sent: unknown;
    multilingual();
    server.use(
      http.post('*/api/categories/add', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ success: true, message: 'Category created successfully', category: NEWS }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/categories/new', { session: signedIn() });
    const group = await screen.findByRole('group', { name: 'Translations' });
    // the company's other languages, by their own names; not the default
    expect(within(group).getByLabelText('Name in français (fr)')).toHaveAttribute('lang', 'fr');
    expect(within(group).getByLabelText('Name in Deutsch (de)')).toBeInTheDocument();
    expect(within(group).queryByLabelText(/English/)).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Name'), 'News');
    await user.type(within(group).getByLabelText('Name in français (fr)'), 'Actualités');
    await user.click(screen.getByRole('button', { name: 'Create Category' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/categories'));
    expect(sent).toEqual({ name: 'News', slug: 'news', translations: { fr: { name: 'Actualités' } } });
  });

  it('a slug without a name in that language is refused on the client', async () => {
    multilingual();
    const user = userEvent.setup();
    renderApp('/dashboard/categories/new', { session: signedIn() });
    await user.type(await screen.findByLabelText('Name'), 'News');
    await user.type(screen.getByLabelText('Slug in Deutsch (de)'), 'neu');
    await user.click(screen.getByRole('button', { name: 'Create Category' }));
    expect(await screen.findByText('Name is required when a slug is given')).toBeInTheDocument();
    expect(screen.getByLabelText('Name in Deutsch (de)')).toHaveAttribute('aria-invalid', 'true');
  });

  it('editing shows the stored names and slugs; the map sent replaces the stored one (an emptied name removes it)', async () => {
    let sent: unknown;
    multilingual();
    server.use(
      http.get('*/api/categories/c1', () => HttpResponse.json({ success: true, category: NEWS })),
      http.put('*/api/categories/c1', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ success: true, message: 'Category updated successfully', category: NEWS });
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/categories/edit/c1', { session: signedIn() });
    expect(await screen.findByLabelText('Name in français (fr)')).toHaveValue('Actualités');
    expect(screen.getByLabelText('Slug in français (fr)')).toHaveValue('actualites');
    expect(screen.getByLabelText('Slug in Deutsch (de)')).toHaveValue('neu');
    await user.clear(screen.getByLabelText('Name in français (fr)'));
    await user.type(screen.getByLabelText('Name in français (fr)'), 'Nouvelles');
    await user.clear(screen.getByLabelText('Slug in français (fr)'));
    await user.clear(screen.getByLabelText('Name in Deutsch (de)'));
    await user.clear(screen.getByLabelText('Slug in Deutsch (de)'));
    await user.click(screen.getByRole('button', { name: 'Update Category' }));
    expect(await screen.findByText('Category updated successfully')).toBeInTheDocument();
    expect(sent).toEqual({ name: 'News', slug: 'news', description: '', translations: { fr: { name: 'Nouvelles' } } });
  });

  it('tags take names per language too', async () => {
    let sent: unknown;
    multilingual();
    server.use(
      http.get('*/api/tags/t1', () =>
        HttpResponse.json({ success: true, tag: { id: 't1', name: 'release', slug: 'release', postCount: 0 } }),
      ),
      http.put('*/api/tags/t1', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ success: true, message: 'Tag updated successfully', tag: { id: 't1', name: 'release', slug: 'release', postCount: 0 } });
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/tags/edit/t1', { session: signedIn() });
    await user.type(await screen.findByLabelText('Name in français (fr)'), 'version');
    await user.type(screen.getByLabelText('Slug in français (fr)'), 'nouvelle-version');
    await user.click(screen.getByRole('button', { name: 'Update Tag' }));
    expect(await screen.findByText('Tag updated successfully')).toBeInTheDocument();
    expect(sent).toEqual({ name: 'release', slug: 'release', translations: { fr: { name: 'version', slug: 'nouvelle-version' } } });
  });

  it('a company with one language sees no translation fields and sends none', async () => {
    let sent: unknown;
    server.use(
      http.get('*/api/categories/c1', () => HttpResponse.json({ success: true, category: { ...NEWS, translations: undefined } })),
      http.get('*/api/categories', () => HttpResponse.json({ success: true, categories: [NEWS] })),
      http.put('*/api/categories/c1', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ success: true, message: 'Category updated successfully', category: NEWS });
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/categories/edit/c1', { session: signedIn() });
    await screen.findByRole('heading', { name: 'Edit Category: News' });
    expect(screen.queryByRole('group', { name: 'Translations' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Update Category' }));
    expect(await screen.findByText('Category updated successfully')).toBeInTheDocument();
    expect(sent).toEqual({ name: 'News', slug: 'news', description: '' });
  });
});
