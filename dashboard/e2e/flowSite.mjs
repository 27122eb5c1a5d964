// The site around the posts: a page created and published (no category) and seen through the
// public API; Settings → Site (the website address, the navigation reordered by keyboard and by
// pointer) seen through GET /api/v1/settings; a tag named in a second language; a post with a
// translation deleted through the dialog that asks what becomes of it; the author profile on My
// account; each role's access to pages, as for posts (viewer reads, author own drafts, editor all).
// Every new screen at 360 and 1280 px: no sideways scrolling, primary actions in sight, axe-clean.
import { atWidths } from './flowScreens.mjs';
import { expect } from './harness.mjs';

export const PASSWORD = 'e2e-password-123';
const WIDTHS = [
  [360, 740],
  [1280, 800],
];

export function call(page, method, url, body) {
  return page.evaluate(
    async ([m, u, b]) => {
      const res = await fetch(u, {
        method: m,
        headers: { Authorization: `Bearer ${localStorage.getItem('token')}`, 'Content-Type': 'application/json' },
        body: b ? JSON.stringify(b) : undefined,
        cache: 'no-store',
      });
      const text = await res.text();
      let json = null;
      try {
        json = JSON.parse(text);
      } catch {
        // not JSON
      }
      return { status: res.status, body: json, text };
    },
    [method, url, body],
  );
}

export function publicCall(page, url, apiKey) {
  return page.evaluate(
    async ([u, key]) => {
      const res = await fetch(u, { headers: { 'x-api-key': key }, cache: 'no-store' });
      return { status: res.status, body: await res.json() };
    },
    [url, apiKey],
  );
}

/** The screen as shown at 360 and 1280 px: layout and axe problems, a screenshot of each. */
export const widths = (page, shot, name, problems) =>
  atWidths(page, shot, name, problems, { sizes: WIDTHS, after: { width: 1366, height: 900 } });

export async function toast(page, text) {
  await page.locator('[data-sonner-toast]').filter({ hasText: text }).first().waitFor();
}

/** The post open in the editor is published from its Status (the editor saves and goes to the
 * posts list), then opened in the editor again. */
export async function publishInEditor(page, tenant, postId) {
  await page.getByLabel('Status').selectOption('published');
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await toast(page, 'Post updated successfully');
  await page.waitForURL(`${tenant}/dashboard/posts`);
  await page.goto(`${tenant}/dashboard/posts/edit/${postId}`);
  await page.locator('.ck-editor__editable').waitFor();
}

export async function signIn(page, tenant, email) {
  await page.goto(`${tenant}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(`${tenant}/dashboard`);
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
}

/** Fill the page editor (a page needs no category). */
async function writePage(page, { title, image, status }) {
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Title').blur();
  await page.locator('.ck-editor__editable').click();
  await page.keyboard.type(`${title}: who we are and how to reach us.`);
  await page.getByLabel('Excerpt').fill(`About ${title}`);
  await page.getByRole('button', { name: 'Select Featured Image' }).click();
  const picker = page.getByRole('dialog', { name: 'Select Featured Image' });
  // Other flows may have filled the library's first page: the image is searched for.
  await picker.getByRole('searchbox', { name: 'Search media' }).fill(image);
  await picker.getByRole('button', { name: image }).first().click();
  await page.getByRole('tab', { name: 'SEO' }).click();
  await page.getByLabel('SEO Description').fill(`The ${title} page`);
  await page.getByRole('tab', { name: 'Content' }).click();
  if (status) await page.getByLabel('Status').selectOption(status);
}

export async function siteFlow({ run, browser, page, tenant, sub, shot, image }) {
  const problems = [];
  const pageTitle = `About ${sub}`;
  let apiKey = '';
  let verified = false;

  await run.step('Pages beside Posts: create and publish a page; the public API serves it', async () => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Posts' }).waitFor(); // the dashboard has rendered its sidebar
    const names = (await nav.getByRole('link').allTextContents()).map((t) => t.trim());
    expect(names.indexOf('Pages') === names.indexOf('Posts') + 1, `Pages follows Posts in the sidebar (${names})`);
    await nav.getByRole('link', { name: 'Pages' }).click();
    await page.getByRole('heading', { name: 'Pages', level: 1 }).waitFor();
    await page.getByText('No pages found. Create your first page!').waitFor();
    await widths(page, shot, '90-pages-empty', problems);
    await page.locator('header').getByRole('link', { name: 'Add Page' }).click();
    await page.getByRole('heading', { name: 'Create New Page' }).waitFor();
    await page.locator('.ck-editor__editable').waitFor();
    expect((await page.locator('form.post-form').getByText('Categories', { exact: true }).count()) === 0, 'a page has no categories to choose');
    await writePage(page, { title: pageTitle, image, status: 'published' });
    await widths(page, shot, '91-page-new', problems);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await toast(page, 'Page created successfully');
    await page.waitForURL(`${tenant}/dashboard/pages`);
    await page.getByRole('link', { name: pageTitle, exact: true }).waitFor();
    await widths(page, shot, '92-pages-list', problems);
    apiKey = (await call(page, 'GET', '/api/client/info')).body.data.apiInfo.authentication.apiKey;
    // The public API answers once the company's email is verified (the first flow's step).
    verified = !!(await call(page, 'GET', '/api/client/verification')).body?.verified;
    if (!verified) console.log('    (the company email is not verified: the public API is not asked)');
    else {
      const served = await publicCall(page, '/api/v1/pages', apiKey);
      expect(served.status === 200, `GET /api/v1/pages (${served.status})`);
      expect(JSON.stringify(served.body).includes(pageTitle), 'the public API lists the published page');
      const posts = await publicCall(page, '/api/v1/posts?limit=50', apiKey);
      expect(!JSON.stringify(posts.body).includes(pageTitle), 'and not among the posts');
    }
  });

  await run.step('the page list searches its own rows; the page opens in its editor', async () => {
    await page.getByRole('searchbox', { name: 'Search pages' }).fill('nothing-like-this');
    await page.getByText('No pages match "nothing-like-this".').waitFor();
    await page.getByRole('searchbox', { name: 'Search pages' }).fill(sub);
    await page.getByRole('link', { name: pageTitle, exact: true }).click();
    await page.getByRole('heading', { name: `Edit Page: ${pageTitle}` }).waitFor();
    await page.locator('.ck-editor__editable').waitFor();
    await widths(page, shot, '93-page-edit', problems);
    expect(problems.length === 0, `problems:\n  ${problems.splice(0).join('\n  ')}`);
  });

  await run.step('Settings → Site: set the website address, reorder the navigation by keyboard and pointer', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('link', { name: 'Edit site settings' }).click();
    await page.getByRole('heading', { name: 'Site', level: 1 }).waitFor();
    await page.getByLabel('Title', { exact: true }).fill(`Journal ${sub}`);
    await page.getByLabel('Website address').fill('https://www.example.com');
    await page.getByLabel('Post URL template').fill('https://www.example.com/blog/{slug}');
    await page.getByLabel('Accent color', { exact: true }).fill('#0b5fff');
    const list = page.getByRole('list', { name: 'Navigation', exact: true });
    // The company's navigation starts empty here: links an earlier flow brought (a Ghost import
    // carries its site's navigation) are removed first.
    await list.getByLabel('Label').first().or(page.getByRole('button', { name: 'Add link to Navigation' })).first().waitFor();
    while (await list.getByRole('button', { name: 'Remove link 1' }).count()) {
      const before = await list.getByLabel('Label').count();
      await list.getByRole('button', { name: 'Remove link 1' }).click();
      for (let tries = 0; tries < 50 && (await list.getByLabel('Label').count()) === before; tries += 1) await page.waitForTimeout(100);
    }
    for (const [label, url] of [['Home', '/'], ['Blog', '/blog'], ['About', '/about']]) {
      await page.getByRole('button', { name: 'Add link to Navigation' }).click();
      await list.getByLabel('Label').last().fill(label);
      await list.getByLabel('Address').last().fill(url);
    }
    // Keyboard: About (3rd) up, twice; focus stays on it (on Move down once it is first).
    // Each check waits (up to 5 s) for the screen to show what it expects: React moves the focus
    // and the rows after the key press or click, not within it.
    const focusOn = (name) => page.waitForFunction((wanted) => document.activeElement?.getAttribute('aria-label') === wanted, name, { timeout: 5000 }).catch(() => {});
    await list.getByRole('button', { name: 'Move link 3 up' }).focus();
    await page.keyboard.press('Enter');
    await focusOn('Move link 2 up');
    let focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    expect(focused === 'Move link 2 up', `focus follows the link moved (${focused})`);
    await page.keyboard.press('Enter');
    await focusOn('Move link 1 down');
    focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    expect(focused === 'Move link 1 down', `at the top, focus is on its Move down (${focused})`);
    await page.getByRole('status').filter({ hasText: 'About moved to position 1 of 3' }).waitFor();
    // Pointer: Home (now 2nd) down.
    await list.getByRole('button', { name: 'Move link 2 down' }).click();
    let labels = [];
    for (let tries = 0; tries < 50; tries += 1) {
      labels = await list.getByLabel('Label').evaluateAll((inputs) => inputs.map((i) => i.value));
      if (labels.join(',') === 'About,Blog,Home') break;
      await page.waitForTimeout(100);
    }
    expect(labels.join(',') === 'About,Blog,Home', `the order on screen (${labels})`);
    await page.getByRole('button', { name: 'Add link to Secondary navigation' }).click();
    const secondary = page.getByRole('list', { name: 'Secondary navigation' });
    await secondary.getByLabel('Label').last().fill('Privacy');
    await secondary.getByLabel('Address').last().fill('/privacy');
    await page.getByLabel('X (Twitter)').fill(`@acme${sub}`.slice(0, 30));
    await widths(page, shot, '94-site-settings', problems);
    await page.getByRole('button', { name: 'Save site settings' }).click();
    await toast(page, 'Site settings saved');
    await page.reload();
    await page.getByLabel('Website address').waitFor();
    expect((await page.getByLabel('Website address').inputValue()) === 'https://www.example.com', 'the website address is kept');
    const kept = await page.getByRole('list', { name: 'Navigation', exact: true }).getByLabel('Label').evaluateAll((inputs) => inputs.map((i) => i.value));
    expect(kept.join(',') === 'About,Blog,Home', `the order is kept (${kept})`);
    if (verified) {
      const settings = await publicCall(page, '/api/v1/settings', apiKey);
      const s = settings.body.data.settings;
      expect(s.url === 'https://www.example.com', `the public settings' url (${s.url})`);
      expect(s.navigation.map((l) => l.label).join(',') === 'About,Blog,Home', `the public navigation (${JSON.stringify(s.navigation)})`);
      expect(s.title === `Journal ${sub}` && s.accentColor === '#0b5fff', `title and accent (${s.title}, ${s.accentColor})`);
    }
    await page.getByRole('link', { name: 'Back to settings' }).first().click();
    const card = page.locator('section', { has: page.getByRole('heading', { name: 'Site', exact: true }) });
    await card.getByText('https://www.example.com').waitFor();
    await card.scrollIntoViewIfNeeded();
    await shot('95-settings-site-card');
    expect(problems.length === 0, `problems:\n  ${problems.splice(0).join('\n  ')}`);
  });

  await run.step('a tag named in a second language (its form)', async () => {
    const languages = (await call(page, 'GET', '/api/client/languages')).body;
    const codes = languages.languages.map((l) => l.code);
    if (!codes.includes('fr')) {
      const saved = await call(page, 'PUT', '/api/client/languages', {
        languages: [...codes, 'fr'], defaultLanguage: languages.defaultLanguage, fallbacks: {},
      });
      expect(saved.status === 200, `French added (${saved.status} ${saved.text.slice(0, 200)})`);
    }
    // Names without the run's mark: the screens flow picks the other flows' tag and category by it.
    const made = await call(page, 'POST', '/api/tags/add', { name: 'Travel', slug: 'travel' });
    expect(made.status === 201, `tag created (${made.status} ${made.text.slice(0, 200)})`);
    const tag = made.body.tag;
    await page.goto(`${tenant}/dashboard/tags/edit/${tag.id}`);
    const group = page.getByRole('group', { name: 'Translations' });
    await group.getByLabel('Name in français (fr)').fill('Voyages');
    await group.getByLabel('Slug in français (fr)').fill('voyages');
    await widths(page, shot, '96-tag-translations', problems);
    await page.getByRole('button', { name: 'Update Tag' }).click();
    await toast(page, 'Tag updated successfully');
    const saved = await call(page, 'GET', `/api/tags/${tag.id}`);
    const fr = saved.body.tag.translations?.fr;
    expect(fr?.name === 'Voyages' && fr?.slug === 'voyages', `saved (${JSON.stringify(saved.body.tag.translations)})`);
    expect(problems.length === 0, `problems:\n  ${problems.splice(0).join('\n  ')}`);
  });

  await run.step('deleting a post that has a translation: the dialog says why and keeps the translation as the main post', async () => {
    const media = (await call(page, 'GET', '/api/media')).body.media;
    const category = (await call(page, 'POST', '/api/categories/add', { name: 'Kept', slug: 'kept' })).body.category;
    const title = `Twice told ${sub}`;
    const created = await call(page, 'POST', '/api/posts/upload', {
      postTitle: title, postExcerpt: 'In two languages', postContent: '<p>Told in English.</p>', customSlug: `twice-${sub}`,
      postStatus: 'published', categories: [category.id], tags: [], featuredMediaId: media[0].id, allowIndexing: true,
      scheduledPublishDate: '', videoId: '', seoMetadata: { title, description: 'Twice', canonicalUrl: '', focusKeyword: '' },
    });
    expect(created.status === 201, `post created (${created.status} ${created.text.slice(0, 200)})`);
    const post = created.body.post;
    const translated = await call(page, 'POST', `/api/posts/${post.id}/translations`, { language: 'fr' });
    expect(translated.status === 201 || translated.status === 200, `translation (${translated.status} ${translated.text.slice(0, 200)})`);
    const translationId = translated.body.post.id;

    await page.goto(`${tenant}/dashboard/posts`);
    const actions = page.getByRole('button', { name: `Actions for ${title}` });
    await actions.click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Are you sure you want to delete this post?' }).getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'This post has translations' });
    await dialog.waitFor();
    expect((await page.locator('[data-sonner-toast]').filter({ hasText: 'Failed to delete post' }).count()) === 0, 'no "Failed to delete post"');
    await dialog.getByText('français (fr)').first().waitFor();
    // Keyboard: focus is inside, Tab stays inside, Escape closes and gives focus back.
    const inside = () => page.evaluate(() => !!document.activeElement?.closest('[role=dialog]'));
    expect(await inside(), 'focus moved into the dialog');
    for (let i = 0; i < 6; i += 1) await page.keyboard.press('Tab');
    expect(await inside(), 'Tab stays inside the dialog');
    await widths(page, shot, '97-delete-translations-dialog', problems);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await actions.evaluate((el) => el === document.activeElement), 'focus back on the row menu button');
    // Again, and keep the French translation as the main post.
    await actions.click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Are you sure you want to delete this post?' }).getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('group', { name: 'What becomes of the translation?' }).getByRole('radio', { name: 'Keep it: make the français (fr) translation the main post' }).check();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'deleted');
    await dialog.waitFor({ state: 'detached' });
    const gone = await call(page, 'GET', `/api/posts/${post.id}`);
    expect(gone.status === 404, `the English post is gone (${gone.status})`);
    const kept = await call(page, 'GET', `/api/posts/${translationId}`);
    expect(kept.status === 200 && kept.body.post.language === 'en', `the translation is kept as the main post (${kept.status} ${kept.body?.post?.language})`);
    expect(problems.length === 0, `problems:\n  ${problems.splice(0).join('\n  ')}`);
  });

  await run.step('My account: the author profile', async () => {
    await page.goto(`${tenant}/dashboard/account`);
    const card = page.locator('section', { has: page.getByRole('heading', { name: 'Author profile' }) });
    await card.getByLabel('Display name').fill('Erin Tester');
    await card.getByLabel('Bio').fill('Writes the end-to-end notes.');
    await card.getByLabel('Website').fill('https://erin.example.com');
    await widths(page, shot, '98-my-account-profile', problems);
    await card.getByRole('button', { name: 'Save profile' }).click();
    await toast(page, 'Profile saved');
    expect(problems.length === 0, `problems:\n  ${problems.splice(0).join('\n  ')}`);
  });

  // The roles: the roles flow's people when it ran, else made here.
  const people = ['editor', 'author', 'viewer'].map((role) => ({ role, username: `${role}${sub}`.slice(0, 30), email: `${role}@${sub}.example.com` }));
  await run.step('editor, author and viewer accounts', async () => {
    for (const p of people) {
      const made = await call(page, 'POST', '/api/auth/register-user', { username: p.username, email: p.email, password: PASSWORD, role: p.role });
      expect(made.status === 201 || made.status === 409, `${p.role} (${made.status} ${made.text.slice(0, 200)})`);
    }
  });

  const contexts = {};
  await run.step('each role on pages, as on posts: the viewer reads, the author writes own drafts, the editor everything', async () => {
    for (const p of people) {
      contexts[p.role] = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      contexts[p.role].setDefaultTimeout(20_000);
    }
    // The viewer: no Add Page, View only, the page read-only.
    const viewer = await contexts.viewer.newPage();
    await signIn(viewer, tenant, people[2].email);
    await viewer.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pages' }).click();
    await viewer.getByRole('link', { name: pageTitle, exact: true }).waitFor();
    expect((await viewer.getByRole('link', { name: 'Add Page' }).count()) === 0, 'no Add Page for the viewer');
    await viewer.getByRole('button', { name: `Actions for ${pageTitle}` }).click();
    const items = (await viewer.getByRole('menuitem').allTextContents()).map((t) => t.trim());
    expect(items.join(',') === 'View', `the viewer's row menu (${items})`);
    await viewer.keyboard.press('Escape');
    await widths(viewer, (n) => viewer.screenshot({ path: shot.path(n), fullPage: true }), '99-viewer-pages', problems);
    await viewer.getByRole('link', { name: pageTitle, exact: true }).click();
    await viewer.getByText('Your role can read this page, not change it').waitFor();
    expect(await viewer.getByLabel('Title').isDisabled(), 'the title is read-only for the viewer');
    await widths(viewer, (n) => viewer.screenshot({ path: shot.path(n), fullPage: true }), '99b-viewer-page', problems);
    // The viewer reads the site settings, changes nothing.
    await viewer.goto(`${tenant}/dashboard/settings/site`);
    await viewer.getByText('Only administrators change the site settings; you can read them.').waitFor();
    expect((await viewer.getByRole('button', { name: 'Save site settings' }).count()) === 0, 'no save for the viewer');
    await widths(viewer, (n) => viewer.screenshot({ path: shot.path(n), fullPage: true }), '99c-viewer-site', problems);

    // The author: a draft page of their own; the admin's published page read-only.
    const author = await contexts.author.newPage();
    await signIn(author, tenant, people[1].email);
    await author.goto(`${tenant}/dashboard/pages`);
    await author.locator('header').getByRole('link', { name: 'Add Page' }).click();
    await author.locator('.ck-editor__editable').waitFor();
    const statuses = (await author.getByLabel('Status').locator('option').allTextContents()).map((t) => t.trim());
    expect(statuses.join(',') === 'Draft,Submit for review', `the author's statuses (${statuses})`);
    await writePage(author, { title: `Contact ${sub}`, image });
    await widths(author, (n) => author.screenshot({ path: shot.path(n), fullPage: true }), '99d-author-page-new', problems);
    await author.getByRole('button', { name: 'Save draft', exact: true }).click();
    await toast(author, 'Page created successfully');
    await author.waitForURL(`${tenant}/dashboard/pages?status=draft`);
    await author.getByRole('button', { name: `Actions for Contact ${sub}` }).click();
    let menu = (await author.getByRole('menuitem').allTextContents()).map((t) => t.trim());
    expect(menu.join(',') === 'Edit,Delete', `the author's own draft (${menu})`);
    await author.keyboard.press('Escape');
    await author.getByRole('button', { name: 'Published' }).click();
    await author.getByRole('button', { name: `Actions for ${pageTitle}` }).click();
    menu = (await author.getByRole('menuitem').allTextContents()).map((t) => t.trim());
    expect(menu.join(',') === 'View', `another's published page (${menu})`);
    await author.keyboard.press('Escape');

    // The editor: everything, and the author's draft published.
    const editor = await contexts.editor.newPage();
    await signIn(editor, tenant, people[0].email);
    await editor.goto(`${tenant}/dashboard/pages?status=all`);
    for (const title of [pageTitle, `Contact ${sub}`]) {
      await editor.getByRole('button', { name: `Actions for ${title}` }).click();
      menu = (await editor.getByRole('menuitem').allTextContents()).map((t) => t.trim());
      expect(menu.join(',') === 'Edit,Delete', `the editor on ${title} (${menu})`);
      await editor.keyboard.press('Escape');
    }
    await editor.getByRole('button', { name: 'Waiting for review' }).waitFor();
    await widths(editor, (n) => editor.screenshot({ path: shot.path(n), fullPage: true }), '99e-editor-pages', problems);
    await editor.getByRole('button', { name: `Actions for Contact ${sub}` }).click();
    await editor.getByRole('menuitem', { name: 'Edit' }).click();
    await editor.locator('.ck-editor__editable').waitFor();
    await editor.getByLabel('Status').selectOption('published');
    await editor.getByRole('button', { name: 'Publish', exact: true }).click();
    await toast(editor, 'Page updated successfully');
    await editor.waitForURL(`${tenant}/dashboard/pages`);
    await editor.getByRole('link', { name: `Contact ${sub}`, exact: true }).waitFor();
    expect(problems.length === 0, `problems:\n  ${problems.splice(0).join('\n  ')}`);
  });
  for (const context of Object.values(contexts)) await context.close();
}
