// Publishing: a post featured in its editor, starred in the list and listed by the public API's
// ?featured=true; Settings → Integrations: an integration made (its keys shown once and working on
// Ghost's Admin and Content APIs), rotated (the old key refused, the new one shown once), deleted; the
// Website integration refused deletion with the server's message; a non-admin kept out. Each screen
// at 360 and 1280 px: no sideways scrolling, primary actions in sight, axe-clean.
import { createHmac } from 'node:crypto';
import { expect } from './harness.mjs';
import { call, PASSWORD, publicCall, signIn, toast, widths } from './flowSite.mjs';

/** A published post made through the dashboard API (its image: the library's first). */
async function publishedPost(page, title, slug) {
  const media = (await call(page, 'GET', '/api/media')).body.media;
  expect(media.length > 0, 'the media library has an image (the first flow uploads one)');
  // A category of its own, named without the run's mark: the screens flow deletes the other flows'
  // category (found by the mark), which a post would keep in use.
  let category = (await call(page, 'GET', '/api/categories')).body.categories.find((c) => c.slug === 'picks');
  if (!category) category = (await call(page, 'POST', '/api/categories/add', { name: 'Picks', slug: 'picks' })).body.category;
  const created = await call(page, 'POST', '/api/posts/upload', {
    postTitle: title, postExcerpt: 'One to put forward', postContent: '<p>Worth a star.</p>', customSlug: slug,
    postStatus: 'published', categories: [category.id], tags: [], featuredMediaId: media[0].id, allowIndexing: true,
    scheduledPublishDate: '', videoId: '', seoMetadata: { title, description: 'Worth a star', canonicalUrl: '', focusKeyword: '' },
  });
  expect(created.status === 201, `post created (${created.status} ${created.text.slice(0, 200)})`);
  return created.body.post;
}

export async function featuredFlow({ run, page, tenant, sub, shot }) {
  const problems = [];
  const title = `Starred ${sub}`;

  await run.step('feature a post: the star in its editor, the star in the list, ?featured=true of the public API', async () => {
    const post = await publishedPost(page, title, `starred-${sub}`);
    expect(post.featured === false, 'a new post is not featured');
    await page.goto(`${tenant}/dashboard/posts/edit/${post.id}`);
    await page.getByRole('heading', { name: `Edit Post: ${title}` }).waitFor();
    await page.locator('.ck-editor__editable').waitFor();
    const star = page.getByRole('button', { name: 'Feature this post' });
    expect((await star.getAttribute('aria-pressed')) === 'false', 'the star is not pressed');
    // By keyboard: focus the toggle, Space.
    await star.focus();
    await page.keyboard.press('Space');
    expect((await star.getAttribute('aria-pressed')) === 'true', 'the star is pressed');
    await star.scrollIntoViewIfNeeded();
    await widths(page, shot, '100-post-featured-editor', problems);
    await page.getByRole('button', { name: 'Update', exact: true }).click();
    await toast(page, 'Post updated successfully');
    await page.waitForURL(`${tenant}/dashboard/posts`);
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: title, exact: true }) });
    await row.locator('.badge', { hasText: 'Featured' }).waitFor();
    await widths(page, shot, '101-posts-featured-star', problems);
    const saved = await call(page, 'GET', `/api/posts/${post.id}`);
    expect(saved.body.post.featured === true, 'the post is featured on the server');

    const verified = !!(await call(page, 'GET', '/api/client/verification')).body?.verified;
    if (!verified) console.log('    (the company email is not verified: the public API is not asked)');
    else {
      const apiKey = (await call(page, 'GET', '/api/client/info')).body.data.apiInfo.authentication.apiKey;
      const featured = await publicCall(page, '/api/v1/posts?featured=true&limit=50', apiKey);
      expect(featured.status === 200, `GET /api/v1/posts?featured=true (${featured.status})`);
      const titles = featured.body.data.posts.map((p) => p.title);
      expect(titles.includes(title), `?featured=true lists the post (${titles})`);
      const others = await publicCall(page, '/api/v1/posts?featured=false&limit=50', apiKey);
      expect(!JSON.stringify(others.body).includes(title), '?featured=false does not');
    }
    expect(problems.length === 0, `problems:\n  ${problems.splice(0).join('\n  ')}`);
  });
}

/** Ghost's Admin API token for an Admin API key (id:secret): HS256, kid, aud /admin/, 5 minutes. */
function adminToken(key) {
  const [id, secret] = key.split(':');
  const part = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const iat = Math.floor(Date.now() / 1000);
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT', kid: id })}.${part({ iat, exp: iat + 300, aud: '/admin/' })}`;
  return `${unsigned}.${createHmac('sha256', Buffer.from(secret, 'hex')).update(unsigned).digest('base64url')}`;
}

/** The status of GET /ghost/api/admin/posts/ with this Admin API key. */
function adminApiStatus(page, key) {
  return page.evaluate(
    async (token) => (await fetch('/ghost/api/admin/posts/?limit=1', { headers: { Authorization: `Ghost ${token}` }, cache: 'no-store' })).status,
    adminToken(key),
  );
}

/** The status of Ghost's Content API with this Content API key. */
function contentApiStatus(page, key) {
  return page.evaluate(async (k) => (await fetch(`/ghost/api/content/posts/?key=${k}&limit=1`, { cache: 'no-store' })).status, key);
}

/** The values of the keys dialog, then closed with Done. */
async function readKeys(page, title) {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor();
  const value = async (label) => {
    const field = dialog.getByRole('textbox', { name: label, exact: true });
    return (await field.count()) ? field.inputValue() : null;
  };
  return { dialog, url: await value('API URL'), admin: await value('Admin API key'), content: await value('Content API key') };
}

export async function integrationsFlow({ run, browser, page, tenant, sub, shot }) {
  const problems = [];
  const name = `iA Writer ${sub}`;
  let keys = null;

  await run.step('Settings → Integrations: the API URL; an integration made, its keys shown once, both working', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('link', { name: 'Integrations' }).click();
    await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
    const website = page.getByRole('row').filter({ hasText: "Your website's key" });
    await website.getByText('Website', { exact: true }).waitFor();
    const apiUrl = await page.getByRole('textbox', { name: 'API URL' }).inputValue();
    expect(apiUrl === tenant, `the API URL is the company host (${apiUrl})`);
    await widths(page, shot, '102-integrations', problems);

    await page.locator('header').getByRole('button', { name: 'Add integration' }).click();
    const create = page.getByRole('dialog', { name: 'Add integration' });
    await create.getByRole('button', { name: 'Create integration' }).click();
    await create.getByText('Name is required').waitFor();
    await create.getByLabel('Name').fill(name);
    await widths(page, shot, '103-integration-new', problems);
    await create.getByRole('button', { name: 'Create integration' }).click();
    keys = await readKeys(page, `Keys of ${name}`);
    await keys.dialog.getByText("you won't see them again").waitFor();
    expect(/^[0-9a-f]{24}:[0-9a-f]{64}$/.test(keys.admin ?? ''), `an Admin API key (${keys.admin})`);
    expect(/^[0-9a-f]{26}$/.test(keys.content ?? ''), `a Content API key (${keys.content})`);
    expect(keys.url === tenant, `the API URL in the dialog (${keys.url})`);
    // Copy: the clipboard gets the key.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: tenant });
    await keys.dialog.getByRole('button', { name: 'Copy Admin API key' }).click();
    await toast(page, 'Copied to clipboard!');
    expect((await page.evaluate(() => navigator.clipboard.readText())) === keys.admin, 'the Admin API key was copied');
    await widths(page, shot, '104-integration-keys', problems);
    await keys.dialog.getByRole('button', { name: 'Done' }).click();
    await keys.dialog.waitFor({ state: 'detached' });
    const row = page.getByRole('row').filter({ hasText: name });
    await row.getByText(`ends in ${keys.content.slice(-4)}`).waitFor();
    const body = await page.locator('body').innerText();
    expect(!body.includes(keys.admin.split(':')[1]) && !body.includes(keys.content), 'the keys are not shown again');
    const admin = await adminApiStatus(page, keys.admin);
    expect(admin === 200, `the Admin API key opens Ghost's Admin API (${admin})`);
    const content = await contentApiStatus(page, keys.content);
    expect(content === 200, `the Content API key opens Ghost's Content API (${content})`);
    expect(problems.length === 0, `problems:\n  ${problems.splice(0).join('\n  ')}`);
  });

  await run.step('rotate the Admin API key: the new one shown once and working, the old one refused', async () => {
    await page.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'Rotate keys' }).click();
    const dialog = page.getByRole('dialog', { name: `Rotate keys of ${name}` });
    await dialog.getByRole('radio', { name: 'The Admin API key only' }).check();
    await widths(page, shot, '105-integration-rotate', problems);
    await dialog.getByRole('button', { name: 'Rotate' }).click();
    const rotated = await readKeys(page, `New keys of ${name}`);
    expect(rotated.content === null, 'the Content API key was not rotated: not shown');
    expect(rotated.admin && rotated.admin !== keys.admin, 'a new Admin API key');
    await rotated.dialog.getByRole('button', { name: 'Done' }).click();
    expect((await adminApiStatus(page, keys.admin)) === 401, 'the old Admin API key is refused');
    expect((await adminApiStatus(page, rotated.admin)) === 200, 'the new one works');
    expect((await contentApiStatus(page, keys.content)) === 200, 'the Content API key still works');
    keys = { ...keys, admin: rotated.admin };
    expect(problems.length === 0, `problems:\n  ${problems.splice(0).join('\n  ')}`);
  });

  await run.step('delete it after confirming: its keys stop working; the Website integration is refused with its reason', async () => {
    await page.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete integration' });
    await dialog.getByText(`Delete ${name}?`).waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Integration deleted');
    await page.getByRole('row').filter({ hasText: name }).waitFor({ state: 'detached' });
    expect((await adminApiStatus(page, keys.admin)) === 401, 'the deleted integration\'s Admin API key is refused');
    expect((await contentApiStatus(page, keys.content)) === 401, 'and its Content API key');
    await page.getByRole('button', { name: 'Actions for Website' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await toast(page, "company's Ghost content key");
    await page.getByRole('row').filter({ hasText: "Your website's key" }).waitFor();
    await shot('106-integration-website-kept');
  });

  await run.step('a non-admin cannot reach Settings → Integrations', async () => {
    const editor = { email: `editor@${sub}.example.com`, username: `editor${sub}`.slice(0, 30) };
    const made = await call(page, 'POST', '/api/auth/register-user', { username: editor.username, email: editor.email, password: PASSWORD, role: 'editor' });
    expect(made.status === 201 || made.status === 409, `editor (${made.status} ${made.text.slice(0, 200)})`);
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    context.setDefaultTimeout(20_000);
    try {
      const other = await context.newPage();
      await signIn(other, tenant, editor.email);
      await other.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
      await other.getByText('Company Information').waitFor();
      expect((await other.getByRole('link', { name: 'Integrations' }).count()) === 0, 'no Integrations on Settings for the editor');
      await other.goto(`${tenant}/dashboard/settings/integrations`);
      await other.getByText('Only administrators can manage integrations.').waitFor();
      expect((await other.getByRole('button', { name: 'Add integration' }).count()) === 0, 'nothing to add');
      const refused = await call(other, 'GET', '/api/integrations');
      expect(refused.status === 403, `the server refuses the editor too (${refused.status})`);
      await widths(other, (n) => other.screenshot({ path: shot.path(n), fullPage: true }), '107-integrations-editor', problems);
    } finally {
      await context.close();
    }
    expect(problems.length === 0, `problems:\n  ${problems.splice(0).join('\n  ')}`);
  });
}
