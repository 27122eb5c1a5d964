import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '@/app/providers';
import { makeStore } from '@/app/store';
import type { Post } from '@/api/posts';
import { LANGUAGES_EN_FR_DE, makePost } from '@/test/fixtures';
import { signedIn, TENANT } from '@/test/render';
import { server } from '@/test/server';
import { TranslationsPanel } from '../components/editorial/TranslationsPanel';

const LANGUAGES = LANGUAGES_EN_FR_DE;

function renderPanel(post: Post) {
  const router = createMemoryRouter(
    [
      { path: '/dashboard/posts/edit/:id', element: <TranslationsPanel post={post} /> },
    ],
    { initialEntries: [`/dashboard/posts/edit/${post.id}`] },
  );
  render(
    <AppProviders store={makeStore(signedIn())} config={TENANT}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

describe('Translations panel (post editor)', () => {
  it('lists the translations and adds a French one as a draft copy', async () => {
    const sent: unknown[] = [];
    server.use(
      http.get('*/api/client/languages', () => HttpResponse.json(LANGUAGES)),
      http.post('*/api/posts/p-1/translations', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ success: true, message: 'Translation created', post: { ...makePost(2), id: 'p-2' } },
                                 { status: 201 });
      }),
    );
    const post = {
      ...makePost(1), id: 'p-1', language: 'en', translationGroup: 'p-1',
      translations: [
        { id: 'p-1', language: 'en', slug: 'post-1', title: 'Post 1', status: 'published', isScheduled: false },
        { id: 'p-9', language: 'de', slug: 'post-1', title: 'Beitrag 1', status: 'draft', isScheduled: false },
      ],
    } as unknown as Post;
    const router = renderPanel(post);
    expect(await screen.findByRole('link', { name: 'Deutsch: Beitrag 1' })).toHaveAttribute('href', '/dashboard/posts/edit/p-9');
    const select = await screen.findByLabelText('Translate into');
    // only the languages the post lacks
    expect([...(select as HTMLSelectElement).options].map((o) => o.value)).toEqual(['fr']);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Add translation' }));
    expect(await screen.findByText('Translation created')).toBeInTheDocument();
    expect(sent).toEqual([{ language: 'fr' }]);
    expect(router.state.location.pathname).toBe('/dashboard/posts/edit/p-2');
  });

  it('shows nothing for a company with one language', () => {
    server.use(http.get('*/api/client/languages', () => HttpResponse.json({ ...LANGUAGES, languages: LANGUAGES.languages.slice(0, 1) })));
    renderPanel({ ...makePost(1), id: 'p-1' } as unknown as Post);
    expect(screen.queryByText('Translations')).toBeNull();
  });
});
