import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { baseHandlers, makePost } from '@/test/fixtures';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';
import { compareSnapshots } from '../revisionDiff';
import { exampleRequest } from '../components/editorial/PreviewLinksPanel';

vi.mock('@/components/editor/CkEditorField', () => import('./editorMock'));

const UPDATED_AT = '2026-11-23T14:00:00.000Z';
const POST = { ...makePost(1, { status: 'draft', content: '<p>Old body</p>' }), updatedAt: UPDATED_AT };

function revision(number: number, snapshot: Record<string, unknown>) {
  return {
    id: `r${number}`,
    number,
    action: number === 1 ? 'create' : 'update',
    published: false,
    author: { id: 'u-1', username: 'alice' },
    createdAt: `2026-11-23T1${number}:00:00.000Z`,
    snapshot,
  };
}

const REVISIONS = [
  revision(2, { title: 'Second title', content: '<p>The quick brown fox</p>', excerpt: 'e', categories: ['c1'], status: 'draft' }),
  revision(1, { title: 'First title', content: '<p>The slow brown fox</p>', excerpt: 'e', categories: ['c1'], status: 'draft' }),
];

function editorHandlers(extra: { autosave?: unknown; links?: unknown[] } = {}) {
  return [
    ...baseHandlers,
    http.get('*/api/posts/p1', () => HttpResponse.json({ success: true, post: POST })),
    http.get('*/api/posts/p1/autosave', () => HttpResponse.json({ success: true, autosave: extra.autosave ?? null })),
    http.put('*/api/posts/p1/autosave', async ({ request }) => {
      const body = (await request.json()) as { fields: unknown; baseUpdatedAt: string };
      return HttpResponse.json({ success: true, autosave: { ...body, updatedAt: '2026-11-23T14:02:00.000Z' } });
    }),
    http.get('*/api/posts/p1/preview-links', () => HttpResponse.json({ success: true, links: extra.links ?? [] })),
  ];
}

describe('revision diff', () => {
  it('compares texts word by word (HTML stripped) and other fields as values', () => {
    const diffs = compareSnapshots(REVISIONS[1].snapshot, REVISIONS[0].snapshot, { c1: 'News' });
    expect(diffs.map((d) => d.field)).toEqual(['title', 'content']);
    const content = diffs.find((d) => d.field === 'content')!;
    expect(content.parts.filter((p) => p.removed).map((p) => p.value.trim())).toEqual(['slow']);
    expect(content.parts.filter((p) => p.added).map((p) => p.value.trim())).toEqual(['quick']);
    const moved = compareSnapshots({ categories: ['c1'] }, { categories: ['c2'] }, { c1: 'News', c2: 'Guides' });
    expect(moved[0].parts.map((p) => p.value)).toEqual(['News', 'Guides']);
  });

  it('the example request carries the content key header and the link', () => {
    expect(exampleRequest('http://demo.localhost/api/v1/preview/abc')).toBe(
      'curl -H "x-api-key: YOUR_CONTENT_KEY" "http://demo.localhost/api/v1/preview/abc"',
    );
  });
});

describe('post history', () => {
  it('lists the saves, shows the newest two side by side and restores one after confirming', async () => {
    let restored = '';
    server.use(
      ...editorHandlers(),
      http.get('*/api/posts/p1/revisions', () =>
        HttpResponse.json({
          success: true,
          revisions: REVISIONS.map(({ snapshot: _s, ...r }) => r),
          pagination: { total: 2, totalPages: 1, currentPage: 1, limit: 20 },
        }),
      ),
      http.get('*/api/posts/p1/revisions/:rid', ({ params }) =>
        HttpResponse.json({ success: true, revision: REVISIONS.find((r) => r.id === params.rid) }),
      ),
      http.post('*/api/posts/p1/revisions/:rid/restore', ({ params }) => {
        restored = String(params.rid);
        return HttpResponse.json(
          { success: false, message: 'Authors cannot change a published post. Ask an editor or admin to make the change.', error: 'forbidden' },
          { status: 403 },
        );
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/posts/edit/p1/history', { session: signedIn() });
    expect(await screen.findAllByTestId('revision')).toHaveLength(2);
    const diff = await screen.findByTestId('diff-view');
    expect(within(diff).getByText('slow', { selector: 'del', exact: false })).toBeInTheDocument();
    expect(within(diff).getByText('quick', { selector: 'ins', exact: false })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Restore #1 Created' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restore #1 Created?' });
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    // The server's rule is shown as it says it.
    expect(await screen.findByText(/Authors cannot change a published post/)).toBeInTheDocument();
    expect(restored).toBe('r1');
  });
});

describe('editing: autosave, unsaved copy, conflicts, preview links', () => {
  it('offers the autosaved copy on reopening and puts it back into the form', async () => {
    server.use(
      ...editorHandlers({
        autosave: {
          fields: { title: 'Unsaved title' },
          baseUpdatedAt: UPDATED_AT,
          updatedAt: '2026-11-23T14:02:00.000Z',
        },
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/posts/edit/p1', { session: signedIn() });
    expect(await screen.findByText(/Restore unsaved changes from/)).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveValue('Post number 1');
    await user.click(screen.getByRole('button', { name: 'Restore' }));
    expect(screen.getByLabelText('Title')).toHaveValue('Unsaved title');
    expect(screen.queryByText(/Restore unsaved changes from/)).not.toBeInTheDocument();
  });

  it('saves a draft copy after typing stops, without saving the post', async () => {
    let copy: { fields: { title: string }; baseUpdatedAt: string } | null = null;
    let postSaved = false;
    server.use(
      http.put('*/api/posts/p1/autosave', async ({ request }) => {
        copy = (await request.json()) as typeof copy;
        return HttpResponse.json({ success: true, autosave: { ...copy, updatedAt: '2026-11-23T14:02:00.000Z' } });
      }),
      http.put('*/api/posts/p1', () => {
        postSaved = true;
        return HttpResponse.json({ success: true });
      }),
      ...editorHandlers(),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/posts/edit/p1', { session: signedIn() });
    const title = await screen.findByLabelText('Title');
    await user.type(title, ' edited');
    expect(screen.getByTestId('autosave-status')).toHaveTextContent('Unsaved changes');
    await waitFor(() => expect(screen.getByTestId('autosave-status')).toHaveTextContent(/Saved a draft copy at/), {
      timeout: 6000,
    });
    expect(copy!.fields.title).toBe('Post number 1 edited');
    expect(copy!.baseUpdatedAt).toBe(UPDATED_AT);
    expect(postSaved).toBe(false);
  });

  it('a save refused with edit_conflict names who changed it and shows their changes against yours', async () => {
    let sentBase = '';
    server.use(
      ...editorHandlers(),
      http.put('*/api/posts/p1', async ({ request }) => {
        sentBase = ((await request.json()) as { baseUpdatedAt: string }).baseUpdatedAt;
        return HttpResponse.json(
          {
            success: false,
            error: 'conflict',
            code: 'edit_conflict',
            message: 'This post was changed by eddie at 2026-11-23 14:01 UTC since you opened it. Reload it or compare the changes before saving.',
          },
          { status: 409 },
        );
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/posts/edit/p1', { session: signedIn() });
    const title = await screen.findByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'My title');
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    const dialog = await screen.findByRole('dialog', { name: 'This post was changed by someone else' });
    expect(within(dialog).getByText(/changed by eddie at 2026-11-23 14:01 UTC/)).toBeInTheDocument();
    expect(sentBase).toBe(UPDATED_AT);
    await user.click(within(dialog).getByRole('button', { name: 'Show changes' }));
    const diff = await within(dialog).findByTestId('diff-view');
    const titleChange = within(diff).getByRole('region', { name: /^Title:/ });
    expect(within(titleChange).getByText('Post number 1', { selector: 'del', exact: false })).toBeInTheDocument();
    expect(within(titleChange).getByText('My title', { selector: 'ins', exact: false })).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveValue('My title'); // nothing of yours is lost
  });

  it('lists preview links with their address and makes a new one', async () => {
    const link = {
      id: 'l1',
      status: 'active',
      token: 'abc:sig',
      url: 'http://demo.localhost/api/v1/preview/abc:sig',
      createdBy: { id: 'u-1', username: 'alice' },
      createdAt: '2026-11-23T14:00:00.000Z',
      expiresAt: '2026-11-30T14:00:00.000Z',
      revokedAt: null,
    };
    let created = false;
    server.use(
      ...editorHandlers({ links: [link] }),
      http.post('*/api/posts/p1/preview-links', () => {
        created = true;
        return HttpResponse.json({ success: true, message: 'Preview link created', link }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/posts/edit/p1', { session: signedIn() });
    expect(await screen.findByTestId('preview-url')).toHaveTextContent(link.url);
    expect(screen.getByTestId('preview-example')).toHaveTextContent(`x-api-key: YOUR_CONTENT_KEY`);
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create preview link' }));
    await waitFor(() => expect(created).toBe(true));
  });
});
