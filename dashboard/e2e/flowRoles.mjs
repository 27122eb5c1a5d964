// Second flow (dashboard part 2): users and roles, categories, tags, media library, AI generator,
// settings and the public content API.
import { axeViolations, layoutProblems } from './flowScreens.mjs';
import { expect } from './harness.mjs';

const PASSWORD = 'e2e-password-123';

async function signIn(page, tenant, email) {
  await page.goto(`${tenant}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(`${tenant}/dashboard`);
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
}

async function sidebarHasUsers(page) {
  return (await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).count()) > 0;
}

async function toast(page, text) {
  await page.locator('[data-sonner-toast]').filter({ hasText: text }).first().waitFor();
}

export async function rolesFlow({ run, browser, page, tenant, sub, shot, imageBytes }) {
  const people = ['editor', 'author', 'viewer'].map((role) => ({ role, username: `${role}${sub}`.slice(0, 30), email: `${role}@${sub}.example.com` }));
  const usedCategory = `Used Category ${sub}`;
  const usedTag = `used-tag-${sub}`;
  const image = `library-${sub}.png`;
  let postTitle = '';
  let apiKey = '';

  await run.step('admin creates an editor, an author and a viewer', async () => {
    for (const p of people) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
      await page.getByRole('link', { name: 'Add User' }).click();
      await page.getByRole('heading', { name: 'Create New User' }).waitFor();
      await page.getByLabel('Username').fill(p.username);
      await page.getByLabel('Email').fill(p.email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Role').selectOption(p.role);
      if (p.role === 'viewer') await shot('30-user-create');
      await page.getByRole('button', { name: 'Create User' }).click();
      await page.waitForURL(`${tenant}/dashboard/users`);
      await page.getByRole('cell', { name: p.username, exact: true }).waitFor();
    }
    await shot('31-users');
  });

  await run.step('admin creates a category and a tag on their screens', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Categories' }).click();
    await page.locator('header').getByRole('link', { name: 'Add Category' }).click();
    await page.getByLabel('Name').fill(usedCategory);
    await page.getByLabel('Description (optional)').fill('Used by a post');
    await shot('32-category-form');
    await page.getByRole('button', { name: 'Create Category' }).click();
    await page.waitForURL(`${tenant}/dashboard/categories`);
    await page.getByRole('cell', { name: usedCategory, exact: true }).waitFor();
    await shot('33-categories');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tags' }).click();
    await page.locator('header').getByRole('link', { name: 'Add Tag' }).click();
    await page.getByRole('heading', { name: 'Create New Tag' }).waitFor();
    await page.getByLabel('Name').fill(usedTag);
    await page.getByRole('button', { name: 'Create Tag' }).click();
    await page.waitForURL(`${tenant}/dashboard/tags`);
    await page.getByRole('cell', { name: usedTag, exact: true }).first().waitFor();
  });

  await run.step('media library: a set of files uploads at once, each with its own progress', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Media' }).click();
    await page.getByRole('heading', { name: 'Media Library' }).waitFor();
    await page.getByRole('button', { name: 'Upload New' }).click();
    const files = [];
    for (let i = 0; i < 12; i += 1) {
      const buffer = await page.screenshot({ clip: { x: 20 * i, y: 10 * i, width: 120 + i, height: 90 + i } });
      files.push({ name: `set-${i}-${sub}.png`, mimeType: 'image/png', buffer });
    }
    await page.locator('input[type=file]').setInputFiles(files);
    await page.getByRole('progressbar', { name: `Upload progress of set-0-${sub}.png` }).waitFor();
    const bars = await page.getByRole('list', { name: 'Uploads' }).getByRole('progressbar').count();
    expect(bars === 12, `one progress bar per file (${bars})`);
    await shot('35b-media-multi-upload');
    await toast(page, '12 of 12 files uploaded');
    await page.getByText('Page 1 of 2').waitFor();
    // Thumbnails: every tile shows an image (the rendition once the worker made it).
    await page.waitForFunction(() => [...document.querySelectorAll('.media-tile img')].filter((i) => i.complete && i.naturalWidth > 0).length >= 12, null, { timeout: 30_000 });
    await shot('35c-media-after-upload');
    await page.getByRole('button', { name: 'Upload New' }).click(); // closes the upload panel
  });

  await run.step('media library: upload an image and see its details', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Media' }).click();
    await page.getByRole('heading', { name: 'Media Library' }).waitFor();
    await page.getByRole('button', { name: 'Upload New' }).click();
    await page.locator('input[type=file]').setInputFiles({ name: image, mimeType: 'image/png', buffer: imageBytes });
    await page.getByRole('button', { name: image }).waitFor();
    await page.waitForTimeout(400);
    await shot('34-media');
    await page.getByRole('button', { name: image }).click();
    const dialog = page.getByRole('dialog', { name: 'Media Details' });
    await dialog.getByText('image/png').waitFor();
    expect((await dialog.getByLabel('URL', { exact: true }).inputValue()).startsWith('http'), 'the media URL is absolute');
    await shot('35-media-details');
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  await run.step('AI generator (offline provider) to Create New Post, then publish', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'AI Blog Generator' }).click();
    await page.getByLabel('What should the post be about?').fill(`How to keep a team blog alive, notes ${sub}`);
    await page.getByLabel('Tone').selectOption('friendly');
    await page.getByRole('button', { name: 'Generate Blog Post' }).click();
    await page.getByRole('button', { name: 'Create New Post' }).waitFor({ timeout: 60_000 });
    await shot('36-ai-result');
    await page.getByRole('button', { name: 'Create New Post' }).click();
    await page.waitForURL(`${tenant}/dashboard/posts/new`);
    await toast(page, 'AI-generated content loaded');
    postTitle = await page.getByLabel('Title').inputValue();
    expect(postTitle.length > 0, 'the title is prefilled');
    await page.locator('.ck-editor__editable').waitFor();
    await page.getByRole('checkbox', { name: usedCategory }).check();
    await page.getByRole('checkbox', { name: usedTag }).check();
    await page.getByRole('button', { name: 'Select Featured Image' }).click();
    await page.getByRole('dialog', { name: 'Select Featured Image' }).getByRole('button', { name: image }).click();
    await page.getByLabel('Status').selectOption('published');
    await page.getByRole('tab', { name: 'SEO' }).click();
    expect((await page.getByLabel('SEO Title').inputValue()).length > 0, 'the SEO title is prefilled');
    await shot('37-ai-prefilled-post');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.waitForURL(`${tenant}/dashboard/posts`);
    await page.getByRole('link', { name: postTitle, exact: true }).waitFor();
  });

  await run.step('tag, category and media delete refusals', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tags' }).click();
    await page.getByRole('button', { name: `Actions for ${usedTag}` }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await toast(page, `Cannot delete tag "${usedTag}". It is used in 1 post(s). Remove the tag from all posts first.`);
    await shot('38-tag-refused');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Categories' }).click();
    await page.getByRole('button', { name: `Delete ${usedCategory}` }).click();
    await toast(page, `Cannot delete category "${usedCategory}". It is used in 1 post(s). Remove the category from all posts first.`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Media' }).click();
    await page.getByRole('button', { name: image }).click();
    const dialog = page.getByRole('dialog', { name: 'Media Details' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Confirm Delete' }).click();
    await toast(page, 'Cannot delete media. It is currently used as featured image in 1 posts. Please update those posts first.');
    await shot('39-media-refused');
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  await run.step('settings shows the key; the public API returns the published post with it', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByText('Company Information').waitFor();
    await page.getByRole('button', { name: 'Show API key' }).click();
    // Read once shown: the button and the key change in one render (read before it, the key was its mask).
    await page.getByRole('button', { name: 'Hide API key' }).waitFor();
    apiKey = (await page.getByTestId('api-key').textContent()).trim();
    expect(!apiKey.includes('•'), `the key itself is shown, not its mask (${apiKey.slice(0, 4)}…)`);
    expect(apiKey.length > 10, 'an API key is shown');
    await shot('40-settings');
    const reply = await page.evaluate(async (key) => {
      const res = await fetch('/api/v1/posts', { headers: { 'x-api-key': key } });
      return { status: res.status, body: await res.json() };
    }, apiKey);
    expect(reply.status === 200, `public API status ${reply.status}`);
    const titles = reply.body.data.posts.map((p) => p.title);
    expect(titles.includes(postTitle), `the public API lists the published post (got ${JSON.stringify(titles)})`);
    const refused = await page.evaluate(async () => (await fetch('/api/v1/posts', { headers: { 'x-api-key': 'wrong' } })).status);
    expect(refused === 401, `a wrong key is refused (${refused})`);
  });

  const others = {};
  for (const p of people) {
    others[p.role] = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    others[p.role].setDefaultTimeout(20_000);
  }

  let postEditPath = '';
  await run.step('only admins see Users and Activity; the viewer gets read-only screens', async () => {
    expect(await sidebarHasUsers(page), 'the admin sees Users');
    const viewer = await others.viewer.newPage();
    await signIn(viewer, tenant, people[2].email);
    expect(!(await sidebarHasUsers(viewer)), 'the viewer does not see Users');
    const nav = viewer.getByRole('navigation', { name: 'Main' });
    expect((await nav.getByRole('link', { name: 'Activity' }).count()) === 0, 'the viewer does not see Activity');
    await nav.getByRole('link', { name: 'Tags' }).click();
    await viewer.getByRole('cell', { name: usedTag, exact: true }).first().waitFor();
    expect((await viewer.getByRole('link', { name: 'Add Tag' }).count()) === 0, 'no Add Tag for the viewer');
    expect((await viewer.getByRole('button', { name: `Actions for ${usedTag}` }).count()) === 0, 'no tag actions for the viewer');
    await nav.getByRole('link', { name: 'Media' }).click();
    await viewer.getByRole('heading', { name: 'Media Library' }).waitFor();
    expect((await viewer.getByRole('button', { name: 'Upload New' }).count()) === 0, 'no Upload for the viewer');
    await nav.getByRole('link', { name: 'Posts' }).click();
    await viewer.getByRole('link', { name: postTitle, exact: true }).waitFor();
    expect((await viewer.getByRole('link', { name: 'Add Post' }).count()) === 0, 'no Add Post for the viewer');
    await viewer.getByRole('button', { name: `Actions for ${postTitle}` }).click();
    const items = await viewer.getByRole('menuitem').allTextContents();
    expect(JSON.stringify(items.map((t) => t.trim())) === '["View"]', `the viewer's row menu offers View only (${items})`);
    await viewer.keyboard.press('Escape');
    await viewer.screenshot({ path: shot.path('41-viewer-posts') });
    // The edit address typed by hand: the form is shown read-only, with no save button.
    postEditPath = await page.evaluate(async (title) => {
      const token = localStorage.getItem('token');
      const res = await fetch(`/api/posts?status=all&search=${encodeURIComponent(title)}`, { headers: { Authorization: `Bearer ${token}` } });
      const post = (await res.json()).posts.find((p) => p.title === title);
      return `/dashboard/posts/edit/${post.id}`;
    }, postTitle);
    await viewer.goto(`${tenant}${postEditPath}`);
    await viewer.getByText('Your role can read this post, not change it').waitFor();
    expect(await viewer.getByLabel('Title').isDisabled(), 'the title is read-only for the viewer');
    expect(await viewer.getByLabel('Status').isDisabled(), 'the status is read-only for the viewer');
    expect((await viewer.getByRole('button', { name: /^(Save draft|Publish|Update|Submit for review)$/ }).count()) === 0, 'no save button');
    await viewer.screenshot({ path: shot.path('41b-viewer-post-form'), fullPage: true });
  });

  await run.step('the author cannot pick "published": the draft is submitted for review', async () => {
    const author = await others.author.newPage();
    await signIn(author, tenant, people[1].email);
    expect(!(await sidebarHasUsers(author)), 'the author does not see Users');
    await author.goto(`${tenant}/dashboard/posts/new`);
    await author.getByLabel('Title').fill(`Author draft ${sub}`);
    await author.getByLabel('Title').blur();
    await author.locator('.ck-editor__editable').click();
    await author.keyboard.type('Written by the author.');
    await author.getByLabel('Excerpt').fill('By the author');
    await author.getByRole('checkbox', { name: usedCategory }).check();
    await author.getByRole('button', { name: 'Select Featured Image' }).click();
    await author.getByRole('dialog', { name: 'Select Featured Image' }).getByRole('button', { name: image }).click();
    await author.getByRole('tab', { name: 'SEO' }).click();
    await author.getByLabel('SEO Description').fill('Author post description');
    const options = (await author.getByLabel('Status').locator('option').allTextContents()).map((t) => t.trim());
    expect(JSON.stringify(options) === '["Draft","Submit for review"]', `the author's statuses (${options})`);
    await author.getByRole('button', { name: 'Save draft', exact: true }).waitFor();
    await author.getByLabel('Status').selectOption('review');
    await author.screenshot({ path: shot.path('42-author-submit-for-review') });
    await author.getByRole('button', { name: 'Submit for review', exact: true }).click();
    await toast(author, 'Post submitted for review');
    await author.waitForURL(`${tenant}/dashboard/posts?status=draft`);
    const row = author.getByRole('row').filter({ has: author.getByRole('link', { name: `Author draft ${sub}`, exact: true }) });
    await row.getByText('Waiting for review').waitFor();
    expect((await author.getByRole('button', { name: 'Waiting for review' }).count()) === 0, 'no review filter for the author');
  });

  await run.step('the editor publishes the author’s draft', async () => {
    const editor = await others.editor.newPage();
    await signIn(editor, tenant, people[0].email);
    expect(!(await sidebarHasUsers(editor)), 'the editor does not see Users');
    await editor.goto(`${tenant}/dashboard/posts`);
    await editor.getByRole('button', { name: 'Waiting for review' }).click();
    await editor.waitForURL(`${tenant}/dashboard/posts?status=waiting`);
    await editor.getByRole('link', { name: `Author draft ${sub}`, exact: true }).waitFor();
    await editor.screenshot({ path: shot.path('43a-editor-waiting-for-review') });
    await editor.getByRole('button', { name: `Actions for Author draft ${sub}` }).click();
    await editor.getByRole('menuitem', { name: 'Edit' }).click();
    await editor.getByRole('heading', { name: `Edit Post: Author draft ${sub}` }).waitFor();
    await editor.getByText(/Waiting for review since/).waitFor();
    await editor.getByLabel('Status').selectOption('published');
    await editor.getByRole('button', { name: 'Publish', exact: true }).click();
    await editor.waitForURL(`${tenant}/dashboard/posts`);
    await editor.getByRole('link', { name: `Author draft ${sub}`, exact: true }).waitFor();
    await editor.screenshot({ path: shot.path('43-editor-published') });
  });

  await run.step('editor, author and viewer: each screen they reach is axe-clean and fits at 390 and 1280 px', async () => {
    const screens = [
      ['dashboard', '/dashboard', 'Total Posts'],
      ['posts', '/dashboard/posts?status=all', 'Posts'],
      ['post-form', null, 'Status'],
      ['categories', '/dashboard/categories', usedCategory],
      ['tags', '/dashboard/tags', usedTag],
      ['media', '/dashboard/media', 'Media Library'],
      ['settings', '/dashboard/settings', 'Company Information'],
    ];
    const failures = [];
    for (const [role, context] of Object.entries(others)) {
      const tab = await context.newPage(); // signed in already: each role signed in in its context above
      for (const [name, screenPath, text] of screens) {
        // The post form: a published post's (read-only for the viewer and the author), a new one for the author.
        const path = screenPath ?? (role === 'author' ? '/dashboard/posts/new' : postEditPath);
        await tab.goto(`${tenant}${path}`);
        await tab.getByText(text).first().waitFor();
        await tab.waitForLoadState('networkidle').catch(() => {});
        for (const width of [390, 1280]) {
          await tab.setViewportSize({ width, height: width === 390 ? 844 : 800 });
          await tab.waitForTimeout(120);
          for (const problem of await layoutProblems(tab)) failures.push(`${role} ${name} @${width}: ${problem}`);
          for (const v of await axeViolations(tab)) failures.push(`${role} ${name} @${width}: axe ${v.impact} ${v.id}: ${v.nodes.join(' | ')}`);
          await tab.screenshot({ path: shot.path(`role-${role}-${name}-w${width}`), fullPage: true });
        }
        if (name === 'posts') {
          const addPost = await tab.getByRole('link', { name: 'Add Post' }).count();
          const waiting = await tab.getByRole('button', { name: 'Waiting for review' }).count();
          if ((addPost > 0) !== (role !== 'viewer')) failures.push(`${role} posts: Add Post shown=${addPost > 0}`);
          if ((waiting > 0) !== (role === 'editor')) failures.push(`${role} posts: Waiting for review shown=${waiting > 0}`);
        }
        if (name === 'post-form') {
          const options = (await tab.getByLabel('Status').locator('option').allTextContents()).map((t) => t.trim());
          const disabled = await tab.getByLabel('Title').isDisabled();
          const want = { viewer: [true, 'Draft,Published'], author: [false, 'Draft,Submit for review'], editor: [false, 'Draft,Published,Archived'] }[role];
          if (disabled !== want[0] || options.join(',') !== want[1]) failures.push(`${role} post form: read-only=${disabled}, statuses ${options}`);
        }
      }
      await tab.close();
    }
    expect(failures.length === 0, `${failures.length} problems:\n  ${failures.join('\n  ')}`);
  });

  for (const context of Object.values(others)) await context.close();

  await run.step('phone width screens', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [name, link, check] of [
      ['44-phone-dashboard', 'Dashboard', 'Total Posts'],
      ['45-phone-categories', 'Categories', usedCategory],
      ['46-phone-tags', 'Tags', usedTag],
      ['47-phone-media', 'Media', 'Media Library'],
      ['48-phone-users', 'Users', 'Manage user accounts and permissions'],
      ['49-phone-settings', 'Settings', 'Company Information'],
      ['49b-phone-activity', 'Activity', 'Who did what, and when'],
    ]) {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
      await page.getByText(check).first().waitFor();
      await page.waitForTimeout(300);
      await shot(name);
    }
    await page.goto(`${tenant}/dashboard/posts/new`);
    await page.locator('.ck-editor__editable').waitFor();
    await shot('50-phone-post-form');
    await page.setViewportSize({ width: 1366, height: 900 });
  });
}
