import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Role } from '@/lib/session';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

const as = (role: Role) => signedIn({ userId: `u-${role}`, username: role, role });
const COUNTS = { rows: 3, created: 2, updated: 1, duplicates: 0, skipped: 0, invalid: 1 };

function job(over: Record<string, unknown> = {}) {
  return {
    id: 'j-1',
    source: 'ghost',
    encoding: 'utf-8',
    fileName: 'members.csv',
    fileSize: 120,
    status: 'analysing',
    labels: ['Imported'],
    rowsRead: 0,
    dryRun: null,
    result: null,
    problems: [],
    remarks: [],
    error: '',
    createdAt: '2026-11-02T10:00:00Z',
    startedAt: null,
    finishedAt: null,
    ...over,
  };
}

/** Upload, then the job as the server moves it on: analysing, analysed, (started) running, completed. */
function importApi({ refuseStart }: { refuseStart?: boolean } = {}) {
  const uploads: FormData[] = [];
  let state = job();
  let reads = 0;
  server.use(
    http.post('*/api/members/imports', async ({ request }) => {
      uploads.push(await request.formData());
      return HttpResponse.json({ success: true, job: state }, { status: 201 });
    }),
    http.get('*/api/members/imports/:id', () => {
      reads += 1;
      if (state.status === 'analysing' && reads > 1) {
        state = job({ status: 'analysed', rowsRead: 3, dryRun: COUNTS, problems: [{ line: 4, email: 'nope', reason: 'Not an email address' }] });
      } else if (state.status === 'running') {
        state = job({ status: 'completed', rowsRead: 3, dryRun: COUNTS, result: { ...COUNTS }, finishedAt: '2026-11-02T10:01:00Z' });
      }
      return HttpResponse.json({ success: true, job: state });
    }),
    http.post('*/api/members/imports/:id/start', () => {
      if (refuseStart) {
        return HttpResponse.json(
          { success: false, error: 'forbidden', code: 'plan_limit', message: 'Your plan allows 1 members.' },
          { status: 403 },
        );
      }
      state = job({ status: 'running', rowsRead: 1, dryRun: COUNTS });
      return HttpResponse.json({ success: true, job: state }, { status: 202 });
    }),
  );
  return uploads;
}

const CSV = new File(['email,name\nada@example.com,Ada\n'], 'members.csv', { type: 'text/csv' });

describe('importing members', () => {
  it('upload with labels, the dry run, then the import and its report', async () => {
    const uploads = importApi();
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/members/import', { session: as('editor') });
    await user.type(await screen.findByLabelText('Labels for every imported member'), 'Imported, From Ghost');
    await user.upload(screen.getByLabelText('Members CSV file'), CSV);
    const dryRun = await screen.findByRole('table', { name: 'Dry run' });
    expect(uploads[0].get('labels')).toBe('Imported,From Ghost');
    // A file came (its name and contents do not survive the test environment's FormData).
    expect(uploads[0].get('file')).not.toBeNull();
    expect(typeof uploads[0].get('file')).not.toBe('string');
    expect(router.state.location.search).toBe('?job=j-1');
    expect(within(dryRun).getByRole('row', { name: 'New members 2' })).toBeInTheDocument();
    expect(within(dryRun).getByRole('row', { name: 'Not an address, or unreadable 1' })).toBeInTheDocument();
    expect(screen.getByText('(Ghost)')).toBeInTheDocument();
    expect(screen.getByText('1 line is left out')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Import 3 members' }));
    expect(await screen.findByText('Import complete: 2 added, 1 updated.')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Imported' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See the members' })).toHaveAttribute('href', '/dashboard/members');
  });

  it('a file that is not a members CSV is told under the button', async () => {
    server.use(
      http.post('*/api/members/imports', () =>
        HttpResponse.json(
          {
            success: false,
            error: 'validation_error',
            message: 'Validation failed',
            errors: [{ field: 'file', message: 'This file is not a members CSV: its first line must name the columns' }],
          },
          { status: 400 },
        ),
      ),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/members/import', { session: as('admin') });
    await user.upload(await screen.findByLabelText('Members CSV file'), CSV);
    expect(await screen.findByRole('alert')).toHaveTextContent('This file is not a members CSV');
  });

  it("the plan's refusal is told with the way to the usage", async () => {
    importApi({ refuseStart: true });
    const user = userEvent.setup();
    renderApp('/dashboard/members/import', { session: as('admin') });
    await user.upload(await screen.findByLabelText('Members CSV file'), CSV);
    await user.click(await screen.findByRole('button', { name: 'Import 3 members' }));
    expect(await screen.findByText(/Your plan allows 1 members\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See your plan and usage' })).toBeInTheDocument();
  });

  it.each(['author', 'viewer'] as Role[])('%s: not offered', async (role) => {
    renderApp('/dashboard/members/import', { session: as(role) });
    expect(await screen.findByText('Only editors and administrators can manage members.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByLabelText('Members CSV file')).not.toBeInTheDocument());
  });
});
