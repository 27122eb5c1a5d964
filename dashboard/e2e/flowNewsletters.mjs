// Newsletters: an editor makes a newsletter in Settings → Newsletters, adds two members (one with a
// label), publishes a post, opens Send by email in its editor, picks the label, sees "1 member" and
// sends; the flows' SMTP server (the harness's mail catcher) receives exactly that one email, with
// the post's title, and the send's report says so; a test email reaches the editor's own address.
// Each screen at 390 and 1280 px: no sideways scrolling, primary actions in sight, axe-clean.
import { atWidths, noProblems } from './flowScreens.mjs';
import { expect } from './harness.mjs';
import { call, PASSWORD, publishInEditor, signIn, toast } from './flowSite.mjs';

export async function newslettersFlow({ run, browser, page, tenant, sub, shot, mail }) {
  const problems = [];
  const editor = { email: `editor@${sub}.example.com`, username: `editor${sub}`.slice(0, 30) };
  const newsletter = `Weekly ${sub}`;
  const label = 'Insiders';
  const insider = `insider-${sub}@example.com`;
  const other = `other-${sub}@example.com`;
  const title = `Letter ${sub}`;
  let context;
  let ed; // the editor's page
  let edShot;
  let postId = '';

  await run.step('an editor signs in', async () => {
    const made = await call(page, 'POST', '/api/auth/register-user', { username: editor.username, email: editor.email, password: PASSWORD, role: 'editor' });
    expect(made.status === 201 || made.status === 409, `editor (${made.status} ${made.text.slice(0, 200)})`);
    context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    context.setDefaultTimeout(20_000);
    ed = await context.newPage();
    edShot = Object.assign((n) => ed.screenshot({ path: shot.path(n), fullPage: true }), { path: shot.path });
    await signIn(ed, tenant, editor.email);
  });

  try {
    await run.step('Settings → Newsletters: the editor adds a newsletter', async () => {
      await ed.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
      await ed.getByRole('link', { name: 'Manage newsletters' }).click();
      await ed.getByRole('heading', { name: 'Newsletters', level: 1 }).waitFor();
      // Every company has its first newsletter once one is needed.
      await ed.getByRole('row').filter({ hasText: 'Newsletter' }).first().waitFor();
      await atWidths(ed, edShot, '130-newsletters', problems, { after: { width: 1366, height: 900 } });
      await ed.locator('header').getByRole('button', { name: 'Add newsletter' }).click();
      const dialog = ed.getByRole('dialog', { name: 'Add newsletter' });
      await dialog.getByRole('button', { name: 'Add newsletter' }).click();
      await dialog.getByText('Name is required').waitFor();
      await dialog.getByLabel('Name', { exact: true }).fill(newsletter);
      await dialog.getByLabel('Description').fill('The week in short');
      await dialog.getByLabel('Sender name').fill('E2E Team');
      await dialog.getByLabel('Reply-to address').fill(`replies@${sub}.example.com`);
      await dialog.getByLabel('Footer').fill('You get this because you subscribed.');
      expect(await dialog.getByRole('checkbox', { name: 'New readers join it when they sign up without choosing' }).isChecked(), 'new readers join it');
      await atWidths(ed, edShot, '131-newsletter-new', problems, { after: { width: 1366, height: 900 } });
      await dialog.getByRole('button', { name: 'Add newsletter' }).click();
      await toast(ed, 'Newsletter created');
      await dialog.waitFor({ state: 'detached' });
      const row = ed.getByRole('row').filter({ hasText: newsletter });
      await row.getByText('E2E Team').waitFor();
      await row.getByText('0 members').waitFor();
      noProblems(problems);
    });

    await run.step('two members join it, one with a label', async () => {
      for (const [email, name, withLabel] of [[insider, 'Ida Insider', true], [other, 'Otto Other', false]]) {
        await ed.goto(`${tenant}/dashboard/members/new`);
        await ed.getByRole('heading', { name: 'Add member', level: 1 }).waitFor();
        await ed.getByLabel('Email').fill(email);
        await ed.getByLabel('Name').fill(name);
        if (withLabel) {
          await ed.getByRole('textbox', { name: 'New label' }).fill(label);
          await ed.keyboard.press('Enter');
          expect(await ed.getByRole('checkbox', { name: label }).isChecked(), 'the label is chosen');
        }
        await ed.getByRole('button', { name: 'Add member' }).click();
        await toast(ed, 'Member added');
        await ed.waitForURL(`${tenant}/dashboard/members`);
      }
      // New members join the default newsletters: this one has the two.
      await ed.goto(`${tenant}/dashboard/settings/newsletters`);
      await ed.getByRole('row').filter({ hasText: newsletter }).getByText('2 members').waitFor();
    });

    await run.step('the editor publishes a post; its editor offers Send by email', async () => {
      const media = (await call(ed, 'GET', '/api/media')).body.media;
      expect(media.length > 0, 'the media library has an image (the first flow uploads one)');
      let category = (await call(ed, 'GET', '/api/categories')).body.categories.find((c) => c.slug === 'letters');
      if (!category) category = (await call(ed, 'POST', '/api/categories/add', { name: 'Letters', slug: 'letters' })).body.category;
      const created = await call(ed, 'POST', '/api/posts/upload', {
        postTitle: title, postExcerpt: 'News of the week', postContent: '<p>What happened this week, by email.</p>', customSlug: `letter-${sub}`,
        postStatus: 'draft', categories: [category.id], tags: [], featuredMediaId: media[0].id, allowIndexing: true,
        scheduledPublishDate: '', videoId: '', seoMetadata: { title, description: 'News of the week', canonicalUrl: '', focusKeyword: '' },
      });
      expect(created.status === 201, `draft created (${created.status} ${created.text.slice(0, 200)})`);
      postId = created.body.post.id;
      await ed.goto(`${tenant}/dashboard/posts/edit/${postId}`);
      await ed.getByRole('heading', { name: `Edit Post: ${title}` }).waitFor();
      await ed.locator('.ck-editor__editable').waitFor();
      const card = ed.getByTestId('email-newsletter');
      await card.getByText('Publish or schedule this post to send it by email.', { exact: false }).waitFor();
      expect((await card.getByRole('button', { name: 'Send by email' }).count()) === 0, 'a draft is not sent');
      await publishInEditor(ed, tenant, postId);
      await card.getByRole('button', { name: 'Send by email' }).waitFor();
      await card.scrollIntoViewIfNeeded();
      await atWidths(ed, edShot, '132-editor-email', problems, { after: { width: 1366, height: 900 } });
      noProblems(problems);
    });

    await run.step('Send by email: the label, "1 member", sent', async () => {
      const card = ed.getByTestId('email-newsletter');
      await card.getByRole('button', { name: 'Send by email' }).click();
      const dialog = ed.getByRole('dialog', { name: 'Send by email' });
      await dialog.getByLabel('Newsletter').selectOption({ label: `${newsletter} (2 members)` });
      await dialog.getByText('2 members', { exact: true }).waitFor();
      const labels = (await call(ed, 'GET', '/api/members/labels')).body.labels;
      const insiders = labels.find((l) => l.name === label);
      await dialog.getByLabel('Recipients').selectOption(insiders.id);
      await dialog.getByText('1 member', { exact: true }).waitFor();
      await dialog.getByRole('status').filter({ hasText: 'This email goes to 1 member with this label.' }).waitFor();
      await atWidths(ed, edShot, '133-send-dialog', problems, { after: { width: 1366, height: 900 } });
      await dialog.getByRole('button', { name: 'Send to 1 member' }).click();
      await toast(ed, 'The post is being sent');
      await dialog.waitFor({ state: 'detached' });
      const sends = card.getByRole('list', { name: 'Sends of this post' });
      await sends.getByText(`${newsletter}, label ${label}`).waitFor();
      noProblems(problems);
    });

    await run.step('the SMTP server receives exactly that one email; the report says so', async () => {
      const message = await mail.waitFor(insider, new RegExp(title), 90_000);
      expect(message.subject === title, `the subject is the post's title (${message.subject})`);
      expect(message.text.includes('What happened this week'), 'the email carries the post');
      const card = ed.getByTestId('email-newsletter');
      // The card reads the sends again until this one has finished.
      await card.getByRole('list', { name: 'Sends of this post' }).getByText('Sent', { exact: true }).waitFor({ timeout: 60_000 });
      await card.getByRole('link', { name: `Report of the send to ${newsletter}, label ${label}` }).click();
      await ed.getByRole('heading', { name: 'Send report', level: 1 }).waitFor();
      const delivery = ed.getByRole('region', { name: 'Delivery' });
      const value = async (name) => (await delivery.locator('.list-row', { has: ed.getByText(name, { exact: true }) }).locator('span').nth(1).innerText()).trim();
      await delivery.getByText('1 member', { exact: true }).waitFor();
      expect((await value('Sent')) === '1', `1 sent (${await value('Sent')})`);
      expect((await value('Failed')) === '0', `none failed (${await value('Failed')})`);
      await atWidths(ed, edShot, '134-send-report', problems, { after: { width: 1366, height: 900 } });
      const withTitle = mail.messages().filter((m) => m.subject === title);
      expect(withTitle.length === 1, `one email with the post's title (${withTitle.map((m) => m.to).join(', ')})`);
      expect(withTitle[0].to.includes(insider), `to the member with the label (${withTitle[0].to})`);
      expect(!mail.messages().some((m) => m.to.includes(other)), 'nothing to the member without it');
      noProblems(problems);
    });

    await run.step('a test email reaches the editor', async () => {
      await ed.getByRole('link', { name: 'Back to the post' }).click();
      await ed.locator('.ck-editor__editable').waitFor();
      const card = ed.getByTestId('email-newsletter');
      await card.getByRole('button', { name: 'Send a test email' }).click();
      const dialog = ed.getByRole('dialog', { name: 'Send a test email' });
      await dialog.getByLabel('As sent by').selectOption({ label: newsletter });
      await dialog.getByText(editor.email).waitFor();
      await atWidths(ed, edShot, '135-test-email', problems, { after: { width: 1366, height: 900 } });
      await dialog.getByRole('button', { name: 'Send test email' }).click();
      await toast(ed, `A test email is on its way to ${editor.email}`);
      const test = await mail.waitFor(editor.email, new RegExp(`\\[Test\\] ${title}`), 60_000);
      expect(test.subject === `[Test] ${title}`, `the test's subject (${test.subject})`);
      // A post goes to a newsletter once: the send dialog no longer offers it.
      await card.getByRole('button', { name: 'Send by email' }).click();
      const send = ed.getByRole('dialog', { name: 'Send by email' });
      await send.getByRole('option', { name: `${newsletter} (2 members): sent already` }).waitFor({ state: 'attached' });
      await send.getByRole('button', { name: 'Cancel' }).click();
      noProblems(problems);
    });
  } finally {
    await context?.close();
  }
}
