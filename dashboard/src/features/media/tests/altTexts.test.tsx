import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { LANGUAGES_EN_FR_DE } from '@/test/fixtures';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

const CHART = {
  id: 'm1',
  fileName: 'chart.png',
  fileType: 'image/png',
  fileSize: 2048,
  altText: 'A chart',
  link: 'http://demo.localhost/media/chart.png',
  cdnUrl: 'http://demo.localhost/media/chart.png',
  renditions: { thumbnail: 'http://demo.localhost/media/chart-t.png' },
  uploadedBy: { username: 'bob' },
  uploadedAt: '2024-05-01T10:00:00Z',
  altTexts: { de: 'Ein Diagramm' },
};

function library(media = CHART) {
  const sent: unknown[] = [];
  server.use(
    http.get('*/api/media', () =>
      HttpResponse.json({ success: true, media: [media], page: 1, limit: 12, totalItems: 1, totalPages: 1 }),
    ),
    http.put('*/api/media/m1', async ({ request }) => {
      const body = (await request.json()) as { altText: string; altTexts?: Record<string, string> };
      sent.push(body);
      return HttpResponse.json({ success: true, message: 'Media updated successfully', media: { ...media, ...body } });
    }),
  );
  return sent;
}

async function openDetails() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'chart.png' }));
  return { user, dialog: screen.getByRole('dialog', { name: 'Media Details' }) };
}

describe('media alt text per language', () => {
  it('an editor sets the alt text in each of the company languages; an emptied one is dropped', async () => {
    server.use(http.get('*/api/client/languages', () => HttpResponse.json(LANGUAGES_EN_FR_DE)));
    const sent = library();
    renderApp('/dashboard/media', { session: signedIn() });
    const { user, dialog } = await openDetails();
    // the labels name the languages once the company's languages have arrived
    expect(await within(dialog).findByLabelText('Alt text (English)')).toHaveValue('A chart');
    expect(await within(dialog).findByLabelText('Alt text in Deutsch (de)')).toHaveValue('Ein Diagramm');
    const french = within(dialog).getByLabelText('Alt text in français (fr)');
    expect(french).toHaveAttribute('lang', 'fr');
    const save = within(dialog).getByRole('button', { name: 'Save alt text' });
    expect(save).toBeDisabled(); // nothing changed yet
    await user.type(french, 'Un graphique');
    await user.clear(within(dialog).getByLabelText('Alt text in Deutsch (de)'));
    await user.click(save);
    expect(await screen.findByText('Alt text saved')).toBeInTheDocument();
    expect(sent).toEqual([{ altText: 'A chart', altTexts: { fr: 'Un graphique' } }]);
  });

  it('a text over 500 characters is refused before sending', async () => {
    server.use(http.get('*/api/client/languages', () => HttpResponse.json(LANGUAGES_EN_FR_DE)));
    const sent = library();
    renderApp('/dashboard/media', { session: signedIn() });
    const { user, dialog } = await openDetails();
    const french = await within(dialog).findByLabelText('Alt text in français (fr)');
    await user.click(french);
    await user.paste('x'.repeat(501));
    await user.click(within(dialog).getByRole('button', { name: 'Save alt text' }));
    expect(await within(dialog).findByText('Alt text must be at most 500 characters')).toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  it('a company with one language edits the one alt text and sends no map', async () => {
    const sent = library({ ...CHART, altTexts: undefined } as unknown as typeof CHART);
    renderApp('/dashboard/media', { session: signedIn() });
    const { user, dialog } = await openDetails();
    const alt = within(dialog).getByLabelText('Alt text');
    expect(within(dialog).queryByLabelText(/Alt text in/)).not.toBeInTheDocument();
    await user.clear(alt);
    await user.type(alt, 'Sales chart');
    await user.click(within(dialog).getByRole('button', { name: 'Save alt text' }));
    expect(await screen.findByText('Alt text saved')).toBeInTheDocument();
    expect(sent).toEqual([{ altText: 'Sales chart' }]);
  });

  it('an author sees the alt texts of another user’s file but cannot change them; a viewer neither', async () => {
    server.use(http.get('*/api/client/languages', () => HttpResponse.json(LANGUAGES_EN_FR_DE)));
    library();
    for (const role of ['author', 'viewer'] as const) {
      const view = renderApp('/dashboard/media', { session: signedIn({ userId: 'u-2', username: 'alice', role }) });
      const { dialog } = await openDetails();
      expect(await within(dialog).findByLabelText('Alt text in Deutsch (de)')).toHaveAttribute('readonly');
      expect(within(dialog).queryByRole('button', { name: 'Save alt text' })).not.toBeInTheDocument();
      view.unmount();
    }
  });
});
