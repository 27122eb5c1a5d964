// End-to-end flow of the dashboard against the real backend (deploy/dev/e2e-server.sh):
// register a company, sign in on its subdomain, create a category, upload an image, write and
// publish a post with the editor, see it in the list and detail, edit it, delete it.
// Screenshots of each main screen go to e2e/screenshots/.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { findCompaniesFlow, forgotPasswordFlow, invitationFlow, twoFactorFlow } from './flowAccounts.mjs';
import { editorialFlow } from './flowEditorial.mjs';
import { importFlow } from './flowImport.mjs';
import { rolesFlow } from './flowRoles.mjs';
import { screensFlow } from './flowScreens.mjs';
import { siteFlow } from './flowSite.mjs';
import { translationsFlow } from './flowTranslations.mjs';
import { plansFlow } from './flowPlans.mjs';
import { featuredFlow, integrationsFlow } from './flowPublishing.mjs';
import { membersFlow } from './flowMembers.mjs';
import { newslettersFlow } from './flowNewsletters.mjs';
import { readersFlow } from './flowReaders.mjs';
import { webhooksFlow } from './flowWebhooks.mjs';
import { createRunner, DASHBOARD, expect, freePort, launchBrowser, SHARD, SHOTS, startMailCatcher, startServer } from './harness.mjs';

const T = 20_000;

async function main() {
  if (!process.env.E2E_SKIP_BUILD || !existsSync(path.join(DASHBOARD, 'dist', 'index.html'))) {
    console.log('Building the dashboard...');
    const building = Date.now();
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: DASHBOARD, stdio: ['ignore', 'ignore', 'inherit'] });
    console.log(`  built in ${((Date.now() - building) / 1000).toFixed(1)} s`);
  }
  rmSync(SHOTS, { recursive: true, force: true });
  mkdirSync(SHOTS, { recursive: true });

  // The server's signing keys, shared with the commands a flow runs on its database (plans).
  for (const name of ['SECRET_KEY', 'JWT_SECRET']) process.env[name] ||= randomBytes(36).toString('base64url');
  const port = Number(process.env.E2E_PORT) || (await freePort());
  console.log(`Starting the backend on 127.0.0.1:${port}...`);
  const mail = await startMailCatcher();
  const starting = Date.now();
  const server = await startServer(port, { emailUrl: mail.url }).catch((err) => {
    mail.stop();
    throw err;
  });
  console.log(`  the backend answered in ${((Date.now() - starting) / 1000).toFixed(1)} s`);
  // E2E_FLOWS=accounts (a comma list of webhooks, import, roles, editorial, translations, site, publishing, members, newsletters, readers, screens, plans, accounts) runs the first flow and those only.
  const flows = (process.env.E2E_FLOWS || 'webhooks,import,roles,editorial,translations,site,publishing,members,newsletters,readers,screens,plans,accounts').split(',');
  const run = createRunner();
  // Each flow's seconds, printed at the end (which flows the stage's time goes to).
  const flowTimes = [];
  let flowsEnded;
  const flow = (title) => {
    flowTimes.push({ title, started: Date.now() });
    console.log(`Flow: ${title}`);
  };
  let browser;
  try {
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    context.setDefaultTimeout(T);
    const page = await context.newPage();
    const problems = [];
    const requested = [];
    page.on('request', (req) => requested.push(req.url()));
    const editorRequested = () => requested.some((u) => u.includes('/assets/CkEditorField'));
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) problems.push(`console: ${msg.text()}`);
    });
    page.on('response', (res) => {
      if (res.status() >= 400) problems.push(`HTTP ${res.status()} ${res.request().method()} ${res.url()}`);
    });
    const shot = (name) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
    shot.path = (name) => path.join(SHOTS, `${name}.png`);

    const root = `http://localhost:${port}`;
    const sub = `e2e${Date.now().toString(36)}${SHARD}`;
    const tenant = `http://${sub}.localhost:${port}`;
    const admin = { username: 'e2eadmin', email: `admin@${sub}.example.com`, password: 'e2e-password-123' };
    const title = `E2E post ${sub}`;
    const edited = `${title} (edited)`;
    const category = `E2E Category ${sub}`;
    let imageBytes;

    flow('company, sign-in, post life cycle');
    await run.step('root domain /login asks for the company', async () => {
      await page.goto(`${root}/login`);
      await page.getByLabel('Company subdomain').waitFor();
      await shot('01-root-login');
    });

    await run.step('register a company (two steps)', async () => {
      await page.getByRole('link', { name: 'Create New Account' }).click();
      await page.getByLabel('Company Name').fill('E2E Test Company');
      await page.getByLabel('Contact Name').fill('Erin Tester');
      await page.getByLabel('Contact Email').fill(`contact@${sub}.example.com`);
      await page.getByLabel('Subdomain').fill(sub);
      await shot('02-register-step1');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Username').fill(admin.username);
      await page.getByLabel('Email', { exact: true }).fill(admin.email);
      await page.getByLabel('Password', { exact: true }).fill(admin.password);
      await shot('03-register-step2');
      await page.getByRole('button', { name: 'Create Account' }).click();
      await page.waitForURL(`${tenant}/login?created=1`, { timeout: 60_000 });
      // The sign-in page says the company was created, by its name.
      await page.getByRole('status').filter({ hasText: 'E2E Test Company was created.' }).waitFor();
      await page.getByText('E2E Test Company', { exact: true }).waitFor();
    });

    await run.step('sign in on the company subdomain', async () => {
      await page.getByLabel('Email').fill(admin.email);
      await page.getByLabel('Password', { exact: true }).fill(admin.password);
      await shot('04-tenant-login');
      expect(!editorRequested(), 'the sign-in page does not load CKEditor');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL(`${tenant}/dashboard`);
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await page.getByText('Total Posts').waitFor();
      await page.waitForTimeout(500);
      await shot('05-dashboard');
      // A real PNG to upload: part of this screen.
      imageBytes = await page.screenshot({ clip: { x: 0, y: 0, width: 800, height: 450 } });
    });

    await run.step('sign-up: the banner waits for the verification email; its link verifies', async () => {
      await page.getByText('Please verify your email.').waitFor();
      const closed = await page.evaluate(async (key) => (await fetch('/api/v1/posts', { headers: { 'x-api-key': key } })).status,
        await page.evaluate(async () => {
          const auth = { Authorization: `Bearer ${localStorage.getItem('token')}` };
          return (await (await fetch('/api/client/info', { headers: auth })).json()).data.apiInfo.authentication.apiKey;
        }));
      expect(closed === 403, `the public API answers 403 before verification (got ${closed})`);
      const message = await mail.waitFor(admin.email, /Verify your email/);
      expect(message.subject.includes('E2E Test Company'), `the email names the company: ${message.subject}`);
      const link = message.links.find((u) => u.includes('/verify-email?'));
      expect(link && link.startsWith(`${tenant}/verify-email?`), `a link to the company's host: ${link}`);
      await page.goto(link);
      await page.getByText('Your email address is verified.').waitFor();
      await shot('05b-email-verified');
      await page.getByRole('link', { name: 'Go to the dashboard' }).click();
      await page.getByText('Total Posts').waitFor();
      expect(!(await page.getByText('Please verify your email.').isVisible()), 'the banner is gone');
    });

    if (flows.includes('webhooks')) {
      run.reset();
      flow('webhooks (settings, receiver, delivery log)');
      await webhooksFlow({ run, page, tenant, shot });
    }

    run.reset();
    flow('post life cycle');
    await run.step('open the create form (editor loads lazily)', async () => {
      await page.getByRole('link', { name: 'Posts' }).first().click();
      await page.getByText('No posts found. Create your first post!').waitFor();
      expect(!editorRequested(), 'dashboard and posts list do not load CKEditor');
      await shot('06-posts-empty');
      await page.getByRole('link', { name: 'Add Post' }).first().click();
      await page.getByRole('heading', { name: 'Create New Post' }).waitFor();
      await page.locator('.ck-editor__editable').waitFor();
      expect(editorRequested(), 'the post form loads the CKEditor chunk');
    });

    await run.step('create a category from the post form', async () => {
      await page.getByRole('button', { name: 'Add New' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Add New Category' });
      await dialog.getByLabel('Name').fill(category);
      await dialog.getByLabel('Description').fill('Made by the end-to-end test');
      await shot('07-add-category');
      await dialog.getByRole('button', { name: 'Add Category' }).click();
      await dialog.waitFor({ state: 'detached' });
      const box = page.getByRole('checkbox', { name: category });
      await box.waitFor();
      expect(await box.isChecked(), 'the new category is selected');
    });

    await run.step('upload an image and pick it as featured image', async () => {
      await page.getByRole('button', { name: 'Select Featured Image' }).click();
      const dialog = page.getByRole('dialog', { name: 'Select Featured Image' });
      await dialog.getByRole('button', { name: 'Upload New' }).click();
      await dialog.locator('input[type=file]').setInputFiles({ name: `cover-${sub}.png`, mimeType: 'image/png', buffer: imageBytes });
      const tile = dialog.getByRole('button', { name: `cover-${sub}.png` });
      await tile.waitFor();
      await shot('08-media-picker');
      await tile.click();
      await dialog.waitFor({ state: 'detached' });
      await page.locator('img.featured-preview').first().waitFor();
    });

    await run.step('write the post with the editor', async () => {
      await page.getByLabel('Title').fill(title);
      await page.getByLabel('Title').blur();
      const editable = page.locator('.ck-editor__editable');
      await editable.click();
      await page.keyboard.type('Written by the end-to-end test. ');
      await page.keyboard.press('Control+b');
      await page.keyboard.type('Bold words');
      await page.keyboard.press('Control+b');
      await page.keyboard.press('Enter');
      await page.keyboard.type('Second paragraph.');
      await page.getByRole('button', { name: 'Insert image from media library' }).click();
      const picker = page.getByRole('dialog', { name: 'Insert Image' });
      await picker.getByRole('button', { name: `cover-${sub}.png` }).click();
      await picker.waitFor({ state: 'detached' });
      await editable.locator('img').waitFor();
      await page.getByLabel('Excerpt').fill('A post made by the end-to-end test.');
      await page.getByLabel('Status').selectOption('published');
      await shot('09-editor');
      await page.getByRole('button', { name: 'HTML', exact: true }).click();
      const html = await page.getByLabel('Content HTML source').inputValue();
      expect(html.includes('<strong>Bold words</strong>'), `bold text in the HTML source: ${html}`);
      await shot('10-editor-html');
      await page.getByRole('button', { name: 'Visual', exact: true }).click();
      await page.locator('.ck-editor__editable').waitFor();
      await page.getByRole('tab', { name: 'SEO' }).click();
      expect((await page.getByLabel('URL Slug').inputValue()) === title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, ''), 'slug derived');
      await page.getByRole('button', { name: 'Generate SEO' }).click();
      await page.getByRole('button', { name: 'Apply' }).waitFor({ timeout: 60_000 });
      await shot('11-seo-generated');
      await page.getByRole('button', { name: 'Apply' }).click();
      const seoTitle = await page.getByLabel('SEO Title').inputValue();
      const seoDescription = await page.getByLabel('SEO Description').inputValue();
      expect(seoTitle.length > 0 && seoDescription.length > 0, 'the AI suggestion filled the SEO fields');
      expect((await page.getByLabel('Focus Keywords').inputValue()).length > 0, 'the AI suggestion filled the keywords');
      await shot('12-seo-tab');
    });

    await run.step('publish it and see it in the list', async () => {
      // The save button says what it will do: the status is Published.
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      await page.waitForURL(`${tenant}/dashboard/posts`);
      await page.getByRole('link', { name: title, exact: true }).waitFor();
      await page.getByText(category).first().waitFor();
      await shot('13-posts-list');
    });

    await run.step('search finds it', async () => {
      const box = page.getByRole('combobox', { name: 'Search' }).first();
      await box.fill(sub);
      await page.getByRole('option', { name: new RegExp(title) }).waitFor();
      await shot('14-search');
      await box.fill('');
    });

    await run.step('see the detail', async () => {
      await page.getByRole('link', { name: title, exact: true }).click();
      await page.getByRole('heading', { name: title }).waitFor();
      await page.getByText('Bold words').waitFor();
      await page.getByText(/Published on/).waitFor();
      const images = await page.locator('article img').count();
      expect(images >= 2, `featured and inline images shown (found ${images})`);
      await page.waitForTimeout(300);
      await shot('15-post-detail');
    });

    await run.step('edit it', async () => {
      await page.getByRole('link', { name: 'Edit Post' }).click();
      await page.getByRole('heading', { name: `Edit Post: ${title}` }).waitFor();
      await page.locator('.ck-editor__editable').waitFor();
      await page.getByLabel('Title').fill(edited);
      await shot('16-edit');
      await page.getByRole('button', { name: 'Update', exact: true }).click();
      await page.waitForURL(`${tenant}/dashboard/posts`);
      await page.getByRole('link', { name: edited, exact: true }).waitFor();
    });

    await run.step('delete it', async () => {
      await page.getByRole('button', { name: `Actions for ${edited}` }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      const dialog = page.getByRole('dialog', { name: 'Are you sure you want to delete this post?' });
      await shot('17-delete-confirm');
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('Post deleted successfully').waitFor();
      await page.getByText('No posts found. Create your first post!').waitFor();
      await shot('18-after-delete');
    });

    await run.step('dashboard counts the new content', async () => {
      await page.getByRole('link', { name: 'Dashboard' }).first().click();
      await page.getByText('Total Posts').waitFor();
      await page.waitForTimeout(500);
      await shot('19-dashboard-after');
    });

    await run.step('post form: the save bar is in sight, an invalid tab is marked and its field gets focus', async () => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${tenant}/dashboard/posts/new`);
      await page.locator('.ck-editor__editable').waitFor();
      const save = page.getByRole('button', { name: 'Save draft', exact: true });
      const box = await save.boundingBox();
      expect(box && box.y + box.height <= 800, `Save draft in sight at 1280x800 (${JSON.stringify(box)})`);
      await page.getByLabel('Status').selectOption('published');
      await page.getByRole('button', { name: 'Publish', exact: true }).waitFor();
      await page.getByLabel('Publish Date').fill('2099-01-31');
      await page.getByRole('button', { name: 'Schedule', exact: true }).waitFor();
      await page.getByLabel('Publish Date').fill('');
      await page.getByLabel('Title').fill('Only a title');
      await page.getByRole('tab', { name: 'SEO' }).click();
      await page.getByLabel('Canonical URL').fill('not a url');
      await page.getByRole('tab', { name: 'Content' }).click();
      await page.getByLabel('Excerpt').fill('An excerpt');
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      // Content is the first field to correct: its editor gets focus; the SEO tab is marked.
      await page.waitForTimeout(300);
      const focused = await page.evaluate(() => document.activeElement?.closest('.field')?.querySelector('label')?.textContent);
      expect(focused === 'Content', `the first invalid field has focus (got ${focused})`);
      const seoTab = page.getByRole('tab', { name: 'SEO' });
      expect(!!(await seoTab.getAttribute('aria-describedby')), 'the SEO tab says it has a field to correct');
      await shot('16b-post-form-invalid');
      await page.setViewportSize({ width: 1366, height: 900 });
    });

    await run.step('phone width: header search moves below the title', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Posts' }).click();
      // The form above was left with unsaved changes: leaving it asks first.
      const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
      await leave.waitFor();
      await leave.getByRole('button', { name: 'Leave' }).click();
      await page.getByRole('heading', { name: 'Posts' }).waitFor();
      await shot('20-posts-phone');
      await page.setViewportSize({ width: 1366, height: 900 });
    });


    if (flows.includes('import')) {
      run.reset();
      flow('import a Ghost export (dry run, progress, report), posts in the list and the public API');
      await importFlow({ run, page, tenant, shot });
    }

    if (flows.includes('roles')) {
      run.reset();
      await page.setViewportSize({ width: 1366, height: 900 });
      flow('roles, taxonomy, media, AI generator, settings');
      await rolesFlow({ run, browser, page, tenant, sub, shot, imageBytes });
    }

    if (flows.includes('editorial')) {
      run.reset();
      await page.setViewportSize({ width: 1366, height: 900 });
      flow('autosave, edit conflicts, revisions, preview links');
      await editorialFlow({ run, browser, page, tenant, sub, shot, admin: { email: admin.email, password: admin.password } });
    }

    if (flows.includes('translations')) {
      run.reset();
      await page.setViewportSize({ width: 1366, height: 900 });
      flow('languages, Translate with AI, public API and sitemap per language');
      await translationsFlow({ run, page, tenant, sub, shot });
    }

    if (flows.includes('site')) {
      run.reset();
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.goto(`${tenant}/dashboard`);
      flow('pages, Settings → Site, a tag in a second language, deleting a translated post, roles on pages');
      await siteFlow({ run, browser, page, tenant, sub, shot, image: `cover-${sub}.png` });
    }

    if (flows.includes('publishing')) {
      run.reset();
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.goto(`${tenant}/dashboard`);
      flow('a featured post; Settings → Integrations');
      await featuredFlow({ run, page, tenant, sub, shot });
      run.reset();
      await page.goto(`${tenant}/dashboard`);
      await integrationsFlow({ run, browser, page, tenant, sub, shot });
    }

    if (flows.includes('members')) {
      run.reset();
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.goto(`${tenant}/dashboard`);
      flow('members (add, filter, import, export, labels, roles)');
      await membersFlow({ run, browser, page, tenant, sub, shot });
    }

    if (flows.includes('newsletters')) {
      run.reset();
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.goto(`${tenant}/dashboard`);
      flow('newsletters (Settings → Newsletters, members, Send by email, the report, a test email)');
      await newslettersFlow({ run, browser, page, tenant, sub, shot, mail });
    }

    if (flows.includes('readers')) {
      run.reset();
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.goto(`${tenant}/dashboard`);
      flow("readers (subscribe from the company's website, confirm, a post by email, one-click unsubscribe)");
      await readersFlow({ run, browser, page, tenant, sub, shot, mail });
    }

    if (flows.includes('screens')) {
      run.reset();
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.goto(`${tenant}/dashboard`);
      flow('every screen at four widths, keyboard, toasts, bytes');
      const facts = await page.evaluate(async (s) => {
        const auth = { Authorization: `Bearer ${localStorage.getItem('token')}` };
        const get = async (u) => (await fetch(u, { headers: auth })).json();
        const posts = (await get('/api/posts?status=all&limit=50')).posts;
        const post = posts.find((p) => p.status === 'published') ?? posts[0];
        const category = (await get('/api/categories')).categories.find((c) => c.name.includes(s));
        const tag = (await get('/api/tags?limit=100')).tags.find((t) => t.name.includes(s));
        const user = (await get('/api/users')).users.find((u) => u.username.startsWith('viewer'));
        const pageRow = (await get('/api/pages?status=all&limit=50')).posts[0];
        return {
          pageId: pageRow?.id, pageTitle: pageRow?.title,
          sub: s, postId: post.id, postSlug: post.slug, postTitle: post.title,
          category: category.name, categoryId: category.id, tag: tag.name, tagId: tag.id,
          username: user.username, userId: user.id,
        };
      }, sub);
      await screensFlow({ run, browser, page, tenant, root, shot, facts, admin: { email: admin.email, password: admin.password } });
    }

    if (flows.includes('plans')) {
      run.reset();
      flow('operator console, a plan limit');
      const base = (process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/cms').replace(/\/[^/]*$/, '');
      const databaseEnv = { DATABASE_URL: `${base}/${process.env.E2E_DATABASE || 'cms_e2e_dashboard'}`, ROOT_DOMAIN: 'localhost',
        DEBUG: '0', REDIS_URL: process.env.E2E_REDIS_URL || 'redis://127.0.0.1:6379/9' };
      await plansFlow({ run, browser, root, tenant, sub, shot, admin, databaseEnv });
    }

    if (flows.includes('accounts')) {
      run.reset();
      flow('accounts by email');
      admin.password = await forgotPasswordFlow({ run, browser, tenant, shot, mail, admin, companyName: 'E2E Test Company' });
      run.reset();
      await invitationFlow({ run, browser, tenant, shot, mail, admin, sub });
      run.reset();
      flow('two-factor sign-in, sign-in on the root domain by email');
      await twoFactorFlow({ run, browser, tenant, shot, mail, admin, sub });
      run.reset();
      await findCompaniesFlow({ run, browser, root, tenant, shot, mail, admin, companyName: 'E2E Test Company' });
    }

    run.reset();
    flow('not found');
    await run.step('an unknown path shows the 404 page', async () => {
      await page.goto(`${tenant}/no/such/page`);
      await page.getByRole('heading', { name: 'Oops! Page not found' }).waitFor();
      await shot('21-not-found');
    });

    await run.step('an unknown company shows the 404 page', async () => {
      await page.goto(`http://nosuchcompany${sub}.localhost:${port}/login`);
      await page.getByRole('heading', { name: 'Oops! Page not found' }).waitFor();
      await shot('22-unknown-company');
    });

    flowsEnded = Date.now();
    if (problems.length) console.log(`Browser reported:\n  ${[...new Set(problems)].slice(0, 30).join('\n  ')}`);
  } finally {
    await browser?.close().catch(() => {});
    await server.stop();
    mail.stop();
  }
  const { failed, line } = run.summary();
  if (flowTimes.length) {
    const ended = flowsEnded ?? Date.now();
    console.log('Seconds per flow:');
    flowTimes.forEach(({ title, started }, n) => {
      const seconds = (((flowTimes[n + 1]?.started ?? ended) - started) / 1000).toFixed(1);
      console.log(`  ${seconds.padStart(6)}  ${title}`);
    });
  }
  console.log(`Screenshots: ${SHOTS}`);
  console.log(line);
  process.exitCode = failed ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
