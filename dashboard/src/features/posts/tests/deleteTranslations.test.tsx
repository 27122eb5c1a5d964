import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { baseHandlers, LANGUAGES_EN_FR_DE, makePost, postListReply } from '@/test/fixtures';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

const REFUSAL = {
  success: false,
  error: 'conflict',
  code: 'translations_exist',
  message: 'This post has translations. Delete them too (translations=delete) or make one of them the default-language post (promote=<language>).',
  translations: [
    { language: 'de', id: 'p1-de', slug: 'beitrag-1' },
    { language: 'fr', id: 'p1-fr', slug: 'article-1' },
  ],
};

/** A multilingual company with one English post that has a German and a French translation; the
 *  first delete is refused, the ones that say what becomes of the translations succeed. */
function withTranslations() {
  const deletes: URLSearchParams[] = [];
  let gone = false;
  server.use(
    ...baseHandlers,
    http.get('*/api/client/languages', () => HttpResponse.json(LANGUAGES_EN_FR_DE)),
    http.get('*/api/posts', () => HttpResponse.json(postListReply(gone ? [] : [makePost(1, { language: 'en' })]))),
    http.delete('*/api/posts/p1', ({ request }) => {
      const q = new URL(request.url).searchParams;
      deletes.push(q);
      if (!q.get('translations') && !q.get('promote')) return HttpResponse.json(REFUSAL, { status: 409 });
      gone = true;
      return HttpResponse.json({ success: true, message: 'Post deleted successfully' });
    }),
  );
  return deletes;
}

async function askToDelete(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Actions for Post number 1' }));
  await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
  const confirm = screen.getByRole('dialog', { name: 'Are you sure you want to delete this post?' });
  await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
  return screen.findByRole('dialog', { name: 'This post has translations' });
}

describe('deleting a post that has translations', () => {
  it('says why, lists the translations by language, and promotes the chosen one', async () => {
    const deletes = withTranslations();
    const user = userEvent.setup();
    renderApp('/dashboard/posts', { session: signedIn() });
    const dialog = await askToDelete(user);
    expect(screen.queryByText('Failed to delete post. Please try again.')).not.toBeInTheDocument();
    expect(dialog).toHaveTextContent('It is the English (en) main post of translations');
    const listed = within(within(dialog).getByTestId('translations-to-decide')).getAllByRole('listitem');
    expect(listed.map((li) => li.textContent)).toEqual(['Deutsch (de) /beitrag-1', 'français (fr) /article-1']);
    const group = within(dialog).getByRole('group', { name: 'What becomes of the translations?' });
    expect(within(group).getAllByRole('radio').map((r) => r.closest('label')!.textContent)).toEqual([
      'Delete them too',
      'Keep them: make the Deutsch (de) translation the main post',
      'Keep them: make the français (fr) translation the main post',
    ]);
    // Nothing is chosen yet: nothing to send.
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeDisabled();
    await user.click(within(group).getByRole('radio', { name: 'Keep them: make the français (fr) translation the main post' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Post deleted successfully')).toBeInTheDocument();
    expect(deletes.map((q) => q.toString())).toEqual(['', 'promote=fr']);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('No posts found. Create your first post!')).toBeInTheDocument();
  });

  it('"Delete them too" deletes the translations with the post', async () => {
    const deletes = withTranslations();
    const user = userEvent.setup();
    renderApp('/dashboard/posts', { session: signedIn() });
    const dialog = await askToDelete(user);
    await user.click(within(dialog).getByRole('radio', { name: 'Delete them too' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Post deleted successfully')).toBeInTheDocument();
    expect(deletes.map((q) => q.toString())).toEqual(['', 'translations=delete']);
  });

  it('works by keyboard: a choice is made with Space, Escape closes without deleting and focus goes back', async () => {
    const deletes = withTranslations();
    const user = userEvent.setup();
    renderApp('/dashboard/posts', { session: signedIn() });
    const dialog = await askToDelete(user);
    const first = within(dialog).getByRole('radio', { name: 'Delete them too' });
    first.focus();
    await user.keyboard(' ');
    expect(first).toBeChecked();
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeEnabled();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(deletes).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Actions for Post number 1' })).toHaveFocus();
  });

  it('a translation of the post (not its main language) is deleted at once', async () => {
    server.use(
      ...baseHandlers,
      http.get('*/api/client/languages', () => HttpResponse.json(LANGUAGES_EN_FR_DE)),
      http.get('*/api/posts', () => HttpResponse.json(postListReply([makePost(1, { language: 'fr' })]))),
      http.delete('*/api/posts/p1', () => HttpResponse.json({ success: true, message: 'Post deleted successfully' })),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/posts', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: 'Actions for Post number 1' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Post deleted successfully')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'This post has translations' })).not.toBeInTheDocument();
  });
});
