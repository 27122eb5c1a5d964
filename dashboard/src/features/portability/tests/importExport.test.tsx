import { screen, waitFor, within } from '@testing-library/react';
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

/** The dry run of blog_analyse with every part the server now sends. */
const FULL_PLAN = {
  source: 'wordpress', version: 'WXR 1.2', site: 'https://old.example', sourceName: 'wordpress:https://old.example',
  staffSeats: 2,
  accounts: {
    create: 2, emailed: false,
    message: 'The import makes 2 staff accounts (role author), inactive and without a password. No email is sent unless you choose to invite the authors when you start the import; otherwise each waits until an admin invites its owner from Users.',
  },
  planUse: [
    { limit: 'posts', importUses: 3, used: 10, allowed: 100, fits: true },
    { limit: 'staff_seats', importUses: 2, used: 3, allowed: 3, fits: false },
    { limit: 'media_bytes', importUses: null, used: 0, allowed: 1073741824, fits: true },
  ],
  counts: { post: { create: 3 }, page: {}, author: { create: 2 }, image: { referenced: 4 } },
  conflicts: [],
  madeDrafts: [{ kind: 'post', item: 'Staff notes', reason: 'private in the source: imported as a draft' }],
  madeMembersOnly: [
    { kind: 'post', item: 'Members only news', reason: 'password-protected in the source: imported as members-only' },
  ],
  notBroughtOver: [
    { kind: 'comment', count: 7, why: 'comments are not brought over: there are no comments here' },
    { kind: 'nav_menu_item', count: 1, why: 'menus are not brought over: set the site\'s navigation in Settings, Site' },
  ],
  images: { referenced: 4, inArchive: 2, alreadyImported: 0, toDownload: 2, archiveFiles: 3 },
  contentRemoved: [{ kind: 'post', item: 'Hello world', removed: ['iframe (ads.example)', 'script'] }],
  languages: { used: ['en', 'fr'], add: ['fr'], unknown: ['klingon'], default: null, groups: 1 },
  unsupported: [],
  skipped: [],
};

const MISSING = [
  {
    postId: 'p1', title: 'Bell', slug: 'bell',
    images: [
      { url: 'https://gone.example/wp-content/uploads/2019/05/lost.png', role: 'content', reason: 'not in the images archive and not downloaded', attempts: 0 },
      { url: 'https://gone.example/wp-content/uploads/2019/05/cover.png', role: 'featured_image', reason: 'not in the images archive and not downloaded', attempts: 0 },
    ],
  },
];

const COMPLETED = {
  status: 'completed', phase: 'completed', done: 100,
  report: {
    counts: { post: { created: 58 }, author: { created: 1 } },
    items: [
      { kind: 'image', item: 'https://old/a.jpg', outcome: 'missing', reason: 'HTTP 404' },
      { kind: 'author', item: 'jane', outcome: 'waiting', reason: 'an inactive account for jane@old.example, not emailed: invite its owner from Users when you are ready' },
    ],
    notBroughtOver: [{ kind: 'comment', count: 33, why: 'comments are not brought over: there are no comments here' }],
    imagesKeptAsAddress: 2,
  },
};

interface Uploaded {
  file: boolean;
  images: boolean;
}

function importApi({ plan, missing = [] }: { plan?: Record<string, unknown>; missing?: typeof MISSING } = {}) {
  let polls = 0;
  const started: unknown[] = [];
  const uploads: Uploaded[] = [];
  const base = plan ? { plan } : {};
  server.use(
    http.post('*/api/imports', async ({ request }) => {
      const form = await request.formData();
      // Which files came (their names and contents do not survive the test environment's FormData).
      const sent = (field: string) => form.get(field) !== null && typeof form.get(field) !== 'string';
      uploads.push({ file: sent('file'), images: sent('images') });
      return HttpResponse.json({ success: true, job: job(base) }, { status: 201 });
    }),
    http.get('*/api/imports', () => HttpResponse.json({ success: true, jobs: [], pagination: { page: 1, limit: 10, total: 0, totalPages: 0 } })),
    http.get('*/api/imports/missing-images', () => HttpResponse.json({ success: true, posts: started.length ? missing : [] })),
    http.post('*/api/imports/j1/start', async ({ request }) => {
      started.push(await request.json());
      return HttpResponse.json({ success: true, job: job({ ...base, status: 'queued', phase: 'queued' }) }, { status: 202 });
    }),
    http.get('*/api/imports/j1', () => {
      polls += 1;
      if (!started.length) return HttpResponse.json({ success: true, job: job(base) });
      if (polls < 4) return HttpResponse.json({ success: true, job: job({ ...base, status: 'running', phase: 'posts', done: 40 }) });
      return HttpResponse.json({ success: true, job: job({ ...base, ...COMPLETED }) });
    }),
    http.get('*/api/dashboard/stats', () => HttpResponse.json({ success: false }, { status: 503 })),
    http.get('*/api/analytics/page-views', () => HttpResponse.json({ success: false }, { status: 503 })),
    http.post('*/api/analytics/track', () => HttpResponse.json({ success: true })),
  );
  return { started, uploads };
}

const exportFile = () => new File(['<rss/>'], 'blog.xml', { type: 'text/xml' });
const imagesZip = () => new File(['PK uploads'], 'uploads.zip', { type: 'application/zip' });

describe('import & export', () => {
  it('an admin uploads, reads the dry run, imports with a progress bar and reads the report', async () => {
    const { started } = importApi();
    const user = userEvent.setup();
    renderApp('/dashboard/import-export', { session: as('admin') });
    await user.upload(await screen.findByTestId('import-file-input'), exportFile());
    expect(await screen.findByText('Dry run: what the import would do')).toBeInTheDocument();
    expect(screen.getByText('58 create')).toBeInTheDocument();
    expect(screen.getByText(/\[audio\] in 1 posts/)).toBeInTheDocument();
    await user.click(screen.getByLabelText('Download the images from the old site'));
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByRole('progressbar', { name: 'Import progress' })).toHaveAttribute('aria-valuenow', '40');
    expect(await screen.findByText('58 created', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(started).toEqual([{ downloadImages: false, inviteAuthors: false }]);
    expect(screen.getByRole('button', { name: /Download the report/ })).toBeInTheDocument();
    expect(screen.getByText(/HTTP 404/)).toBeInTheDocument();
  });

  it('the images archive goes with the export, chosen before or after it; each choice makes a new dry run', async () => {
    const { uploads } = importApi();
    const user = userEvent.setup();
    renderApp('/dashboard/import-export', { session: as('admin') });
    const images = await screen.findByLabelText('Images (zip)');
    const group = screen.getByRole('group', { name: /Images \(zip\)/ });
    expect(group).toHaveAccessibleDescription(/wp-content\/uploads.*content\/images/);

    // Images first: nothing is sent until the export is chosen, then both go together.
    await user.upload(images, imagesZip());
    expect(within(group).getByText('uploads.zip')).toBeInTheDocument();
    expect(uploads).toEqual([]);
    await user.upload(screen.getByLabelText('Export file', { selector: 'input' }), exportFile());
    await screen.findByText('Dry run: what the import would do');
    expect(uploads).toEqual([{ file: true, images: true }]);

    // Removing the archive, then choosing it again: a dry run of what would be imported each time.
    await user.click(within(group).getByRole('button', { name: 'Remove uploads.zip' }));
    await waitFor(() => expect(uploads).toHaveLength(2));
    expect(uploads[1]).toEqual({ file: true, images: false });
    expect(within(group).queryByText('uploads.zip')).not.toBeInTheDocument();
    await screen.findByText('Dry run: what the import would do');
    await user.upload(images, new File(['PK images'], 'images.zip', { type: 'application/zip' }));
    await waitFor(() => expect(uploads).toHaveLength(3));
    expect(uploads[2]).toEqual({ file: true, images: true });
    expect(within(group).getByText('images.zip')).toBeInTheDocument();
  });

  it('the dry run tells drafts, members-only posts, removed content, what is left out, languages, the plan and the accounts; authors are invited only when asked', async () => {
    const { started } = importApi({ plan: FULL_PLAN });
    const user = userEvent.setup();
    renderApp('/dashboard/import-export', { session: as('admin') });
    await user.upload(await screen.findByTestId('import-file-input'), exportFile());
    await screen.findByText('Dry run: what the import would do');

    // A kind the dry run counted nothing of has no row.
    const counts = screen.getByRole('table', { name: 'Dry run' });
    expect(within(counts).getAllByRole('rowheader').map((h) => h.textContent)).toEqual(['post', 'author', 'image']);
    const drafts = screen.getByRole('region', { name: 'Made drafts (1)' });
    expect(drafts).toHaveTextContent('Staff notes: private in the source: imported as a draft');
    const membersOnly = screen.getByRole('region', { name: 'Members only (1)' });
    expect(membersOnly).toHaveTextContent('published (or scheduled) as there, their text for signed-in members only');
    expect(membersOnly).toHaveTextContent(
      'Members only news: password-protected in the source: imported as members-only',
    );
    const removed = screen.getByRole('region', { name: 'Content removed (1 post)' });
    expect(removed).toHaveTextContent('Hello world: iframe (ads.example), script');
    const left = screen.getByRole('region', { name: 'Not brought over' });
    expect(left).toHaveTextContent('7 comments: comments are not brought over');
    expect(left).toHaveTextContent('1 menu item: menus are not brought over');
    const languages = screen.getByRole('region', { name: 'Languages' });
    expect(languages).toHaveTextContent("Adds to the company's languages: French (fr)");
    expect(languages).toHaveTextContent('Not a language (their posts go to the default language): klingon');
    expect(screen.getByRole('region', { name: 'Images' })).toHaveTextContent(
      'The posts use 4 images: 2 in the images archive, 0 brought by an earlier import, 2 to download from the old site.',
    );

    const plan = screen.getByRole('table', { name: 'What the import takes of your plan' });
    const seats = within(plan).getByRole('row', { name: /Staff accounts/ });
    expect(seats).toHaveTextContent(/Staff accounts\s*2\s*3\s*3\s*No/);
    expect(within(plan).getByRole('row', { name: /Media storage/ })).toHaveTextContent('not known before the import');
    const refusal = screen.getByRole('alert');
    expect(refusal).toHaveTextContent('This import does not fit your plan (Staff accounts)');
    expect(within(refusal).getByRole('link', { name: 'See your plan and usage' })).toHaveAttribute('href', '/dashboard/settings#usage');

    expect(screen.getByRole('region', { name: 'Staff accounts' })).toHaveTextContent(
      'The import makes 2 staff accounts (role author), inactive and without a password. No email is sent',
    );
    const invite = screen.getByRole('checkbox', { name: 'Invite the authors by email' });
    expect(invite).not.toBeChecked();
    expect(invite).toHaveAccessibleDescription(/wait, inactive, until you invite them from Users/);
    await user.click(invite);
    await user.click(screen.getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(started).toEqual([{ downloadImages: true, inviteAuthors: true }]));
  });

  it('no invitation checkbox when the import makes no account', async () => {
    importApi({ plan: { ...FULL_PLAN, accounts: { create: 0, emailed: false, message: 'The import makes no staff account.' } } });
    const user = userEvent.setup();
    renderApp('/dashboard/import-export', { session: as('admin') });
    await user.upload(await screen.findByTestId('import-file-input'), exportFile());
    await screen.findByText('Dry run: what the import would do');
    expect(screen.queryByRole('checkbox', { name: 'Invite the authors by email' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Staff accounts' })).not.toBeInTheDocument();
  });

  it('a start the plan refuses says why with the way to the usage, and nothing starts', async () => {
    importApi({ plan: FULL_PLAN });
    server.use(
      http.post('*/api/imports/j1/start', () =>
        HttpResponse.json(
          { success: false, error: 'forbidden', code: 'plan_limit', limit: 'staff_seats', used: 3, allowed: 3, plan: 'trial',
            message: 'Your plan allows 3 staff accounts. Remove an account you no longer need, or ask us for a larger plan.' },
          { status: 403 },
        ),
      ),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/import-export', { session: as('admin') });
    await user.upload(await screen.findByTestId('import-file-input'), exportFile());
    await user.click(await screen.findByRole('button', { name: 'Import' }));
    const notice = await screen.findByText(/Your plan allows 3 staff accounts/);
    expect(within(notice.closest('[role="alert"]') as HTMLElement).getByRole('link', { name: 'See your plan and usage' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Import progress' })).not.toBeInTheDocument();
  });

  it('after the import: the waiting authors, the missing images, and "Fetch missing images" followed to its result', async () => {
    importApi({ missing: MISSING });
    let fetched = 0;
    let polls = 0;
    server.use(
      http.post('*/api/imports/j1/fetch-missing', () => {
        fetched += 1;
        return HttpResponse.json({ success: true, job: job(COMPLETED) }, { status: 202 });
      }),
      http.get('*/api/imports/missing-images', ({ request }) => {
        expect(new URL(request.url).searchParams.get('job')).toBe('j1');
        if (!fetched) return HttpResponse.json({ success: true, posts: MISSING });
        polls += 1;
        // The featured image is brought on the first poll; the other is tried again and fails on the second.
        const [lost] = MISSING[0].images;
        const images = polls < 2 ? [lost] : [{ ...lost, attempts: 1, reason: 'the old site did not answer (HTTP 404)' }];
        return HttpResponse.json({ success: true, posts: [{ ...MISSING[0], images }] });
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/import-export', { session: as('admin') });
    await user.upload(await screen.findByTestId('import-file-input'), exportFile());
    await user.click(await screen.findByRole('button', { name: 'Import' }));
    await screen.findByText('58 created', {}, { timeout: 5000 });

    expect(screen.getByText(/1 author account waits, inactive and not emailed/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'invite them from Users' })).toHaveAttribute('href', '/dashboard/users');
    expect(screen.getByText('Not brought over: 33 comments (the report says why).')).toBeInTheDocument();

    const section = await screen.findByRole('region', { name: 'Missing images' });
    expect(section).toHaveTextContent('2 images of 1 post could not be brought');
    const list = within(section).getByRole('list', { name: 'Missing images by post' });
    expect(list).toHaveTextContent('Bell');
    expect(list).toHaveTextContent('https://gone.example/wp-content/uploads/2019/05/lost.png (in the content)');
    expect(list).toHaveTextContent('cover.png (featured image): not in the images archive and not downloaded');

    await user.click(within(section).getByRole('button', { name: 'Fetch missing images' }));
    expect(await within(section).findByRole('progressbar', { name: 'Fetching the missing images' })).toHaveAttribute('aria-valuemax', '2');
    expect(within(section).getByRole('button', { name: /Fetching the missing images/ })).toBeDisabled();
    const result = await within(section).findByRole('status');
    await waitFor(() => expect(result).toHaveTextContent('1 image brought; 1 image is still missing'), { timeout: 8000 });
    expect(fetched).toBe(1);
    expect(within(section).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(list).toHaveTextContent('the old site did not answer (HTTP 404) (tried 1 time)');
    expect(list).not.toHaveTextContent('cover.png');
  });

  it('an earlier import opens with its report and its missing images', async () => {
    importApi();
    const earlier = job({ id: 'j0', fileName: 'old-blog.json', source: 'ghost', sourceVersion: 'Ghost 5.80.0', ...COMPLETED });
    server.use(
      http.get('*/api/imports', () => HttpResponse.json({ success: true, jobs: [earlier], pagination: { page: 1, limit: 10, total: 1, totalPages: 1 } })),
      http.get('*/api/imports/j0', () => HttpResponse.json({ success: true, job: earlier })),
      http.get('*/api/imports/missing-images', ({ request }) =>
        HttpResponse.json({ success: true, posts: new URL(request.url).searchParams.get('job') === 'j0' ? MISSING : [] }),
      ),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/import-export', { session: as('admin') });
    const table = await screen.findByRole('table', { name: 'Earlier imports' });
    expect(table).toHaveTextContent('old-blog.json');
    expect(table).toHaveTextContent('completed');
    await user.click(within(table).getByRole('button', { name: 'Open the import of old-blog.json' }));
    expect(await screen.findByText('58 created')).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Missing images' })).toHaveTextContent('2 images of 1 post');
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Earlier imports' })).not.toBeInTheDocument());
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
