import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Role } from '@/lib/session';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

const as = (role: Role) => signedIn({ userId: `u-${role}`, username: role, role });

function job(overrides: Record<string, unknown>) {
  return {
    id: 'j1', status: 'analysed', source: 'wordpress', sourceVersion: 'WXR 1.2', fileName: 'blog.xml', fileSize: 10,
    phase: '', done: 0, total: 100, error: '', createdAt: '2024-05-03T10:00:00Z', startedAt: null, finishedAt: null,
    plan: { counts: { post: { create: 58 }, author: { invited: 2 } }, conflicts: [], unsupported: [{ shortcode: 'audio', posts: 1 }] },
    report: {},
    ...overrides,
  };
}

function importApi() {
  let polls = 0;
  const started: unknown[] = [];
  server.use(
    http.post('*/api/imports', () => HttpResponse.json({ success: true, job: job({}) }, { status: 201 })),
    http.post('*/api/imports/j1/start', async ({ request }) => {
      started.push(await request.json());
      return HttpResponse.json({ success: true, job: job({ status: 'queued', phase: 'queued' }) }, { status: 202 });
    }),
    http.get('*/api/imports/j1', () => {
      polls += 1;
      if (!started.length) return HttpResponse.json({ success: true, job: job({}) });
      if (polls < 4) return HttpResponse.json({ success: true, job: job({ status: 'running', phase: 'posts', done: 40 }) });
      return HttpResponse.json({
        success: true,
        job: job({ status: 'completed', phase: 'completed', done: 100,
          report: { counts: { post: { created: 58 } }, items: [{ kind: 'image', item: 'https://old/a.jpg', outcome: 'missing', reason: 'HTTP 404' }] } }),
      });
    }),
    http.get('*/api/dashboard/stats', () => HttpResponse.json({ success: false }, { status: 503 })),
    http.get('*/api/analytics/page-views', () => HttpResponse.json({ success: false }, { status: 503 })),
    http.post('*/api/analytics/track', () => HttpResponse.json({ success: true })),
  );
  return started;
}

describe('import & export', () => {
  it('an admin uploads, reads the dry run, imports with a progress bar and reads the report', async () => {
    const started = importApi();
    const user = userEvent.setup();
    renderApp('/dashboard/import-export', { session: as('admin') });
    await user.upload(await screen.findByTestId('import-file-input'), new File(['<rss/>'], 'blog.xml', { type: 'text/xml' }));
    expect(await screen.findByText('Dry run: what the import would do')).toBeInTheDocument();
    expect(screen.getByText('58 create')).toBeInTheDocument();
    expect(screen.getByText(/\[audio\] in 1 posts/)).toBeInTheDocument();
    await user.click(screen.getByLabelText('Download the images from the old site'));
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByRole('progressbar', { name: 'Import progress' })).toHaveAttribute('aria-valuenow', '40');
    expect(await screen.findByText('58 created', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(started).toEqual([{ downloadImages: false }]);
    expect(screen.getByRole('button', { name: /Download the report/ })).toBeInTheDocument();
    expect(screen.getByText(/HTTP 404/)).toBeInTheDocument();
  });

  it('an admin exports everything and gets a download link', async () => {
    importApi();
    let polls = 0;
    const exported = { id: 'e1', status: 'queued', fileSize: 0, counts: {}, error: '', downloadUrl: null, createdAt: '2024-05-03T10:00:00Z', finishedAt: null };
    server.use(
      http.post('*/api/exports', () => HttpResponse.json({ success: true, export: exported }, { status: 202 })),
      http.get('*/api/exports/e1', () => {
        polls += 1;
        return HttpResponse.json({
          success: true,
          export: polls < 2 ? exported : { ...exported, status: 'completed', fileSize: 4096, downloadUrl: 'http://acme.test/api/exports/download/t0k' },
        });
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/import-export', { session: as('admin') });
    await user.click(await screen.findByRole('button', { name: /Export everything/ }));
    const link = await screen.findByRole('link', { name: 'Download the export' }, { timeout: 5000 });
    expect(link).toHaveAttribute('href', 'http://acme.test/api/exports/download/t0k');
  });

  it('other roles are told it is for administrators', async () => {
    importApi();
    renderApp('/dashboard/import-export', { session: as('editor') });
    expect(await screen.findByText('Only administrators can import or export the blog.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('import-file-input')).not.toBeInTheDocument());
  });
});
