// Editorial flow: the editor's autosaved copy offered again after a reload, an edit conflict
// between two browser contexts, restoring a revision from the history screen, and a preview link
// read through the public content API with the content key.
import { axeViolations, layoutProblems } from './flowScreens.mjs';
import { expect } from './harness.mjs';

async function signIn(page, tenant, email, password) {
  await page.goto(`${tenant}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(`${tenant}/dashboard`);
}

/** A call of the dashboard API with the page's session. */
function call(page, method, url, body) {
  return page.evaluate(
    async ([m, u, b]) => {
      const headers = { Authorization: `Bearer ${localStorage.getItem('token')}`, 'Content-Type': 'application/json' };
      const res = await fetch(u, { method: m, headers, body: b ? JSON.stringify(b) : undefined });
      return { status: res.status, body: await res.json() };
    },
    [method, url, body],
  );
}

export async function editorialFlow({ run, browser, page, tenant, sub, shot, admin }) {
  const title = `Editorial draft ${sub}`;
  let postId = '';
  // Leaving a page with unsaved changes asks (beforeunload): these steps accept.
  page.on('dialog', (dialog) => void dialog.accept());

  await run.step('a draft to work on (made through the API)', async () => {
    // A category of its own (the screens flow deletes one of the first flow's, which must stay unused);
    // its name does not carry the company's name, which that flow looks categories up by.
    const label = `Editorial notes ${Math.random().toString(36).slice(2, 7)}`;
    const made = await call(page, 'POST', '/api/categories/add', { name: label, slug: label.toLowerCase().replace(/ /g, '-') });
    expect(made.status === 201, `category created (${made.status})`);
    const categories = [made.body.category];
    const media = (await call(page, 'GET', '/api/media')).body.media;
    expect(media.length, 'an image exists from the first flow');
    const created = await call(page, 'POST', '/api/posts/upload', {
      postTitle: title, postContent: '<p>The first version of the text.</p>', postExcerpt: 'An excerpt',
      customSlug: '', postStatus: 'draft', categories: [categories[0].id], tags: [], featuredMediaId: media[0].id,
      allowIndexing: true, scheduledPublishDate: '', videoId: '',
      seoMetadata: { title: 'SEO', description: 'SEO', canonicalUrl: '', focusKeyword: '' },
    });
    expect(created.status === 201, `draft created (${created.status})`);
    postId = created.body.post.id;
  });

  await run.step('typing saves a draft copy; after a reload the copy is offered and restored', async () => {
    await page.goto(`${tenant}/dashboard/posts/edit/${postId}`);
    await page.getByRole('heading', { name: `Edit Post: ${title}`, exact: true }).waitFor();
    await page.getByLabel('Title').fill(`${title} typed`);
    await page.getByTestId('autosave-status').filter({ hasText: 'Saved a draft copy at' }).waitFor();
    await shot('60-editor-autosaved');
    await page.reload();
    await page.getByText(/Restore unsaved changes from/).waitFor();
    expect((await page.getByLabel('Title').inputValue()) === title, 'the post itself was not changed');
    await shot('61-editor-offer-copy');
    await page.getByRole('button', { name: 'Restore', exact: true }).click();
    expect((await page.getByLabel('Title').inputValue()) === `${title} typed`, 'the copy is back in the form');
    expect((await page.getByRole('button', { name: 'Discard' }).count()) === 0, 'the offer is gone');
  });

  await run.step('two browser contexts save the same post: the second gets the conflict and its changes', async () => {
    // The first tab saves its version (with the restored copy); a second context had opened the
    // post before that save.
    const other = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    other.setDefaultTimeout(20_000);
    const second = await other.newPage();
    second.on('dialog', (dialog) => void dialog.accept());
    await signIn(second, tenant, admin.email, admin.password);
    await second.goto(`${tenant}/dashboard/posts/edit/${postId}`);
    await second.getByRole('heading', { name: `Edit Post: ${title}`, exact: true }).waitFor();
    const offer = second.getByRole('button', { name: 'Discard' });
    if (await offer.count()) await offer.click();

    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.waitForURL(/\/dashboard\/posts/);

    await second.getByLabel('Title').fill(`${title} from the second tab`);
    await second.getByRole('button', { name: 'Save draft' }).click();
    const dialog = second.getByRole('dialog', { name: 'This post was changed by someone else' });
    await dialog.waitFor();
    await dialog.getByText(/This post was changed by .* since you opened it/).waitFor();
    await dialog.getByRole('button', { name: 'Show changes' }).click();
    await dialog.getByTestId('diff-view').waitFor();
    await second.screenshot({ path: shot.path('62-edit-conflict') });
    await dialog.getByRole('button', { name: 'Reload' }).click();
    await second.getByRole('heading', { name: `Edit Post: ${title} typed`, exact: true }).waitFor();
    await other.close();
  });

  await run.step('history: compare two saves and restore the first one', async () => {
    await page.goto(`${tenant}/dashboard/posts/edit/${postId}/history`);
    await page.getByRole('heading', { name: `History: ${title} typed`, exact: true }).waitFor();
    await page.getByTestId('diff-view').waitFor();
    await shot('63-history');
    // The history and the editor with its new panels: axe-clean and usable at phone width.
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
      const axe = await axeViolations(page);
      const layout = await layoutProblems(page);
      expect(!axe.length && !layout.length, `history at ${width}px: ${JSON.stringify({ axe, layout })}`);
    }
    await page.setViewportSize({ width: 360, height: 740 });
    await shot('63b-history-phone');
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.getByRole('button', { name: 'Restore #1 Created' }).click();
    await page.getByRole('dialog', { name: 'Restore #1 Created?' }).getByRole('button', { name: 'Restore' }).click();
    await page.getByRole('heading', { name: `Edit Post: ${title}`, exact: true }).waitFor();
    expect((await page.getByLabel('Title').inputValue()) === title, 'the first title is back');
    const listed = (await call(page, 'GET', `/api/posts/${postId}/revisions`)).body.revisions;
    expect(listed[0].action === 'restore', `the restore is a new revision (${listed[0].action})`);
  });

  await run.step('a preview link of the draft is read through the public API with the content key', async () => {
    await page.getByRole('button', { name: 'Create preview link' }).click();
    const url = (await page.getByTestId('preview-url').first().textContent()).trim();
    await page.getByTestId('preview-example').waitFor();
    await shot('64-preview-links');
    // The toast of the creation is the toast library's own (checked by the screens flow): gone first.
    await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached', timeout: 15_000 });
    await page.setViewportSize({ width: 360, height: 740 });
    // The editor's toolbar regroups its buttons after a resize (ResizeObserver): let it settle, as
    // the other width sweeps do, before checking targets and layout.
    await page.waitForTimeout(300);
    const axe = await axeViolations(page);
    const layout = await layoutProblems(page);
    await shot('64b-editor-phone');
    await page.setViewportSize({ width: 1366, height: 900 });
    expect(!axe.length && !layout.length, `editor at 360px: ${JSON.stringify({ axe, layout })}`);
    const key = (await call(page, 'GET', '/api/client/info')).body.data.apiInfo.authentication.apiKey;
    const read = await page.evaluate(
      async ([u, k]) => {
        const res = await fetch(new URL(u).pathname, { headers: { 'x-api-key': k } });
        return { status: res.status, body: await res.json(), cache: res.headers.get('cache-control') };
      },
      [url, key],
    );
    expect(read.status === 200, `preview read (${read.status})`);
    expect(read.body.data.post.title === title, `the draft's title (${read.body.data.post.title})`);
    expect(read.cache === 'private, no-store', `never cached (${read.cache})`);
    const hidden = await page.evaluate(
      async ([slug, k]) => (await fetch(`/api/v1/posts/slug/${slug}`, { headers: { 'x-api-key': k } })).status,
      [read.body.data.post.slug, key],
    );
    expect(hidden === 404, `the draft stays hidden elsewhere (${hidden})`);
  });
}
