// Readers: the company's website is a small page served on an origin of its own; its form posts to
// the public subscribe endpoint with the company's content key, as a website does. Until an admin
// sets the website's address in Settings → Site the endpoint refuses the page (the Origin check);
// then a reader subscribes (the honeypot left empty; a robot that fills it gets the same reply and no
// email), confirms by the link the flows' SMTP server receives, and is a member in the dashboard. An
// editor publishes a post and sends it with the editor's Email newsletter card; the reader's email
// has the post's title, their own links, List-Unsubscribe and List-Unsubscribe-Post. The reader
// leaves as a mail app makes them leave (RFC 8058: a POST of List-Unsubscribe=One-Click, no cookies);
// the email's Unsubscribe link then shows nothing ticked, the member has no newsletter and the next
// send counts one member less. The members' pages at 390 and 1280 px: axe-clean, screenshots.
import http from 'node:http';
import { atWidths, noProblems } from './flowScreens.mjs';
import { expect, freePort } from './harness.mjs';
import { call, PASSWORD, publishInEditor, signIn, toast } from './flowSite.mjs';

/** The company's website: one page with a subscribe form, as a web developer writes it from the
 * docs (docs/members.md#from-your-website): the content key in x-api-key, the newsletter's id, the
 * honeypot field rendered hidden. The page shows the endpoint's reply. */
function websiteHtml({ endpoint, apiKey, newsletterId, companyName }) {
  const config = JSON.stringify({ endpoint, apiKey, newsletterId });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${companyName}: the newsletter</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; padding: 24px; color: #111; }
  main { max-width: 480px; margin: 0 auto; }
  label { display: block; margin-top: 12px; }
  input { font: inherit; width: 100%; box-sizing: border-box; padding: 8px; }
  button { font: inherit; margin-top: 16px; padding: 8px 16px; }
  .hp { position: absolute; left: -10000px; width: 1px; height: 1px; overflow: hidden; }
</style>
</head>
<body>
<main>
  <h1>${companyName}</h1>
  <p>Get our posts by email.</p>
  <form id="subscribe">
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="email" required>
    <label for="name">Name</label>
    <input id="name" name="name" autocomplete="name">
    <div class="hp" aria-hidden="true">
      <label for="hp-field">Leave this field empty</label>
      <input id="hp-field" name="honeypot" tabindex="-1" autocomplete="off">
    </div>
    <button type="submit">Subscribe</button>
  </form>
  <p id="reply" role="status"></p>
</main>
<script>
  const config = ${config};
  const form = document.getElementById('subscribe');
  const reply = document.getElementById('reply');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    reply.textContent = 'Sending...';
    delete reply.dataset.status;
    try {
      const res = await fetch(config.endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'x-api-key': config.apiKey },
        body: JSON.stringify({ email: data.get('email'), name: data.get('name'), honeypot: data.get('honeypot'), newsletters: [config.newsletterId] }),
      });
      const body = await res.json();
      reply.textContent = body.message;
      reply.dataset.status = String(res.status);
    } catch (err) {
      reply.textContent = 'Your subscription could not be sent: ' + err.message;
      reply.dataset.status = 'error';
    }
  });
</script>
</body>
</html>
`;
}

/** A local HTTP server on a port of its own serving the website's page (html() at each request). */
async function startWebsite(html) {
  const port = await freePort();
  const requests = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (req.method === 'GET' && new URL(req.url, 'http://x').pathname === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(html());
    } else if (req.url === '/favicon.ico') {
      res.writeHead(204);
      res.end();
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('Not found');
    }
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { port, requests, stop: () => new Promise((resolve) => server.close(resolve)) };
}

/** What a mail app does for List-Unsubscribe-Post (RFC 8058): a POST of the form body
 * `List-Unsubscribe=One-Click` to the https address of List-Unsubscribe, no cookies, no redirect
 * followed. The host's name is resolved here to the server's loopback address (the e2e server). */
function oneClickPost(address) {
  const url = new URL(address);
  const body = 'List-Unsubscribe=One-Click';
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: Number(url.port) || 80,
        method: 'POST',
        path: `${url.pathname}${url.search}`,
        headers: { Host: url.host, 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body), 'User-Agent': 'E2E mail app' },
        timeout: 20_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('the one-click POST timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

/** A header of a received message, whatever the case of its name. */
function header(message, name) {
  const found = Object.entries(message.headers || {}).find(([key]) => key.toLowerCase() === name.toLowerCase());
  return found ? found[1] : undefined;
}

/** The address after "<words>: " on a line of the email's text part (its footer's links). */
function footerLink(message, words) {
  const line = message.text.split('\n').find((l) => l.trim().startsWith(`${words}: `));
  return line ? line.trim().slice(words.length + 2).trim() : undefined;
}

export async function readersFlow({ run, browser, page, tenant, sub, shot, mail }) {
  const problems = [];
  const editor = { email: `editor@${sub}.example.com`, username: `editor${sub}`.slice(0, 30) };
  const newsletter = `Readers ${sub}`;
  const reader = { email: `rita-${sub}@example.com`, name: 'Rita Reader' };
  const robot = `robot-${sub}@example.com`;
  const staying = `stan-${sub}@example.com`;
  const title = `For readers ${sub}`;
  const secondTitle = `Second for readers ${sub}`;
  let website;
  let siteUrl = '';
  let apiKey = '';
  let newsletterId = '';
  let previousWebsite = null;
  let readerContext;
  let rp; // the reader's page
  let rpShot;
  let edContext;
  let ed; // the editor's page
  let readerId = '';
  let firstEmail;

  /** The editor publishes a post through the editor and sends it with the Email newsletter card to
   * the newsletter; resolves once the card lists the send. `expected` is the count the dialog shows. */
  async function publishAndSend(postTitle, body, expected) {
    const media = (await call(ed, 'GET', '/api/media')).body.media;
    let category = (await call(ed, 'GET', '/api/categories')).body.categories.find((c) => c.slug === 'letters');
    if (!category) category = (await call(ed, 'POST', '/api/categories/add', { name: 'Letters', slug: 'letters' })).body.category;
    const created = await call(ed, 'POST', '/api/posts/upload', {
      postTitle, postExcerpt: `${postTitle}, in short`, postContent: `<p>${body}</p>`, customSlug: postTitle.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      postStatus: 'draft', categories: [category.id], tags: [], featuredMediaId: media[0]?.id ?? null, allowIndexing: true,
      scheduledPublishDate: '', videoId: '', seoMetadata: { title: postTitle, description: 'For readers', canonicalUrl: '', focusKeyword: '' },
    });
    expect(created.status === 201, `draft created (${created.status} ${created.text.slice(0, 200)})`);
    const postId = created.body.post.id;
    await ed.goto(`${tenant}/dashboard/posts/edit/${postId}`);
    await ed.getByRole('heading', { name: `Edit Post: ${postTitle}` }).waitFor();
    await ed.locator('.ck-editor__editable').waitFor();
    await publishInEditor(ed, tenant, postId);
    const card = ed.getByTestId('email-newsletter');
    await card.getByRole('button', { name: 'Send by email' }).click();
    const dialog = ed.getByRole('dialog', { name: 'Send by email' });
    await dialog.getByLabel('Newsletter').selectOption({ label: `${newsletter} (${expected})` });
    await dialog.getByRole('status').filter({ hasText: `This email goes to ${expected}.` }).waitFor();
    await dialog.getByRole('button', { name: `Send to ${expected}` }).click();
    await toast(ed, 'The post is being sent');
    await dialog.waitFor({ state: 'detached' });
    const sends = card.getByRole('list', { name: 'Sends of this post' });
    await sends.getByText(newsletter, { exact: true }).waitFor();
    await sends.getByText(new RegExp(`^${expected}, `)).waitFor();
    await sends.getByText('Sent', { exact: true }).waitFor({ timeout: 90_000 });
  }

  await run.step('the company\'s website: its own origin; a newsletter for it; the content key', async () => {
    const info = await call(page, 'GET', '/api/client/info');
    apiKey = info.body?.data?.apiInfo?.authentication?.apiKey;
    expect(typeof apiKey === 'string' && apiKey.length > 10, `the company's content key (${info.status})`);
    previousWebsite = (await call(page, 'GET', '/api/client/site')).body?.site?.websiteUrl ?? null;
    const made = await call(page, 'POST', '/api/newsletters', { name: newsletter, description: 'Posts for the website\'s readers', defaultOnSignup: false });
    expect(made.status === 201, `newsletter created (${made.status} ${made.text.slice(0, 200)})`);
    newsletterId = made.body.newsletter.id;
    // A member who stays subscribed: the second send still goes to someone.
    const stay = await call(page, 'POST', '/api/members', { email: staying, name: 'Stan Stays', newsletters: [newsletterId] });
    expect(stay.status === 201, `a member who stays (${stay.status} ${stay.text.slice(0, 200)})`);
    website = await startWebsite(() => websiteHtml({ endpoint: `${tenant}/api/v1/members/subscribe`, apiKey, newsletterId, companyName: 'E2E Test Company' }));
    siteUrl = `http://www-${sub}.localhost:${website.port}`;
    readerContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    readerContext.setDefaultTimeout(20_000);
    rp = await readerContext.newPage();
    rp.on('pageerror', (err) => problems.push(`reader's page error: ${err.message}`));
    rpShot = Object.assign((n) => rp.screenshot({ path: shot.path(n), fullPage: true }), { path: shot.path });
  });

  try {
    await run.step('before the website\'s address is set, the endpoint refuses the page (and says why, CORS included)', async () => {
      await rp.goto(`${siteUrl}/`);
      await rp.getByRole('heading', { name: 'E2E Test Company' }).waitFor();
      await rp.getByLabel('Email').fill(reader.email);
      await rp.getByLabel('Name').fill(reader.name);
      await rp.getByRole('button', { name: 'Subscribe' }).click();
      const replied = rp.getByRole('status');
      await rp.locator('#reply[data-status]').waitFor();
      const text = await replied.innerText();
      expect((await replied.getAttribute('data-status')) === '403', `403 from another origin (${await replied.getAttribute('data-status')}: ${text})`);
      expect(text.includes("This form is not on the company's website"), `the page shows the endpoint's reason: ${text}`);
      await rpShot('140-website-refused');
    });

    await run.step('Settings → Site: the admin sets the website\'s address', async () => {
      await page.goto(`${tenant}/dashboard/settings/site`);
      await page.getByRole('heading', { name: 'Site', level: 1 }).waitFor();
      await page.getByLabel('Website address').fill(siteUrl);
      await page.getByRole('button', { name: 'Save site settings' }).click();
      await toast(page, 'Site settings saved');
      await page.reload();
      await page.getByLabel('Website address').waitFor();
      expect((await page.getByLabel('Website address').inputValue()) === siteUrl, 'the website address is kept');
    });

    await run.step('a robot fills the honeypot: the same reply, nothing is sent', async () => {
      await rp.goto(`${siteUrl}/`);
      await rp.getByLabel('Email').fill(robot);
      await rp.getByLabel('Name').fill('Robot');
      // Robots fill in every field, the hidden one too.
      await rp.locator('#hp-field').evaluate((input) => {
        input.value = 'https://spam.example';
      });
      await rp.getByRole('button', { name: 'Subscribe' }).click();
      await rp.locator('#reply[data-status]').waitFor();
      const replied = rp.getByRole('status');
      expect((await replied.getAttribute('data-status')) === '202', `202 for the robot too (${await replied.getAttribute('data-status')}: ${await replied.innerText()})`);
      expect((await replied.innerText()) === 'Check your inbox: we sent a link to confirm your subscription.', `the same reply: ${await replied.innerText()}`);
    });

    await run.step('a reader subscribes from the website: the page shows the endpoint\'s reply', async () => {
      await rp.goto(`${siteUrl}/`);
      await rp.getByLabel('Email').fill(reader.email);
      await rp.getByLabel('Name').fill(reader.name);
      expect((await rp.locator('#hp-field').inputValue()) === '', 'the honeypot is left empty');
      await rp.getByRole('button', { name: 'Subscribe' }).click();
      await rp.locator('#reply[data-status]').waitFor();
      const replied = rp.getByRole('status');
      const text = await replied.innerText();
      expect((await replied.getAttribute('data-status')) === '202', `202 (${await replied.getAttribute('data-status')}: ${text})`);
      expect(text === 'Check your inbox: we sent a link to confirm your subscription.', `the reply on the page: ${text}`);
      await rpShot('141-website-subscribed');
    });

    await run.step('the confirmation email arrives; its link confirms on the company host (axe, 390 and 1280 px)', async () => {
      const message = await mail.waitFor(reader.email, /Confirm your subscription/, 90_000);
      expect(message.text.includes(newsletter), `the email names the newsletter: ${message.text.slice(0, 300)}`);
      const link = message.links.find((u) => u.includes('/members/confirm?'));
      expect(link && link.startsWith(`${tenant}/members/confirm?token=`), `a link to the company's host: ${link}`);
      // Nothing is a member before the click (double opt-in).
      const before = await call(page, 'GET', `/api/members?search=${encodeURIComponent(reader.email)}`);
      expect(before.body.members.length === 0, `no member before the link is opened (${before.body.members.length})`);
      await rp.goto(link);
      await rp.getByRole('heading', { name: "You're subscribed", level: 1 }).waitFor();
      await rp.getByText(`Thanks for confirming, ${reader.email}.`).waitFor();
      await rp.getByRole('link', { name: 'Manage your preferences' }).waitFor();
      const cookies = await readerContext.cookies(tenant);
      expect(cookies.length === 0, `the page sets no cookie (${cookies.map((c) => c.name)})`);
      await atWidths(rp, rpShot, '142-confirmed', problems);
      noProblems(problems);
      // A second click says so, and changes nothing.
      await rp.goto(link);
      await rp.getByRole('heading', { name: 'Already confirmed', level: 1 }).waitFor();
    });

    await run.step('Members: the reader is a member from the website, subscribed to the newsletter', async () => {
      await page.goto(`${tenant}/dashboard/members`);
      await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
      await page.getByLabel('Search members').fill(reader.email);
      const row = page.getByRole('row').filter({ hasText: reader.email });
      await row.waitFor();
      await row.getByText(reader.name).waitFor();
      await row.getByText(newsletter).waitFor();
      await page.getByText('1 member', { exact: true }).waitFor();
      await shot('143-members-reader');
      await row.getByRole('link', { name: reader.name }).click();
      await page.getByText('Signed up on the website').waitFor();
      await page.locator('.list-row', { has: page.getByText('Consent', { exact: true }) }).getByText(/from /).waitFor();
      expect(await page.getByRole('checkbox', { name: newsletter }).isChecked(), 'subscribed to the newsletter');
      readerId = page.url().split('/').pop();
      await shot('144-member-reader');
    });

    await run.step('an editor publishes a post and sends it to the newsletter (2 members)', async () => {
      const made = await call(page, 'POST', '/api/auth/register-user', { username: editor.username, email: editor.email, password: PASSWORD, role: 'editor' });
      expect(made.status === 201 || made.status === 409, `editor (${made.status} ${made.text.slice(0, 200)})`);
      edContext = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      edContext.setDefaultTimeout(20_000);
      ed = await edContext.newPage();
      await signIn(ed, tenant, editor.email);
      await publishAndSend(title, 'What the readers asked for, by email.', '2 members');
    });

    await run.step('the reader\'s email: the title, their own links, List-Unsubscribe and List-Unsubscribe-Post', async () => {
      firstEmail = await mail.waitFor(reader.email, new RegExp(title), 90_000);
      expect(firstEmail.subject === title, `the subject is the post's title (${firstEmail.subject})`);
      expect(firstEmail.text.includes('What the readers asked for'), 'the email carries the post');
      const listUnsubscribe = header(firstEmail, 'List-Unsubscribe') || '';
      const post = header(firstEmail, 'List-Unsubscribe-Post');
      expect(post === 'List-Unsubscribe=One-Click', `List-Unsubscribe-Post (${post})`);
      const addresses = [...listUnsubscribe.matchAll(/<([^>]+)>/g)].map((m) => m[1]);
      const oneClick = addresses.find((a) => /^https?:/.test(a));
      const mailto = addresses.find((a) => a.startsWith('mailto:'));
      // The company host's own scheme: the e2e server runs with PUBLIC_SCHEME=http; https where
      // the hosts are served over https (test_sends.py in apps/newsletters/tests checks that form).
      expect(oneClick && oneClick.startsWith(`${tenant}/members/unsubscribe?token=`), `List-Unsubscribe's address on the company host: ${listUnsubscribe}`);
      expect(mailto && mailto.includes(readerId), `the mailto names the reader (${mailto}, ${readerId})`);
      const unsubscribe = footerLink(firstEmail, 'Unsubscribe');
      const manage = footerLink(firstEmail, 'Manage your preferences');
      expect(unsubscribe === oneClick, `the footer's Unsubscribe is the one-click address (${unsubscribe})`);
      expect(manage && manage.startsWith(`${tenant}/members/preferences?token=`), `the footer's preferences link (${manage})`);
      const other = await mail.waitFor(staying, new RegExp(title), 90_000);
      expect(footerLink(other, 'Unsubscribe') && footerLink(other, 'Unsubscribe') !== unsubscribe, 'each member has their own link');
      expect(header(other, 'List-Unsubscribe') !== listUnsubscribe, 'and their own List-Unsubscribe');
    });

    await run.step('one click in the mail app: a POST of List-Unsubscribe=One-Click, no cookies', async () => {
      const address = [...(header(firstEmail, 'List-Unsubscribe') || '').matchAll(/<([^>]+)>/g)].map((m) => m[1]).find((a) => /^https?:/.test(a));
      const reply = await oneClickPost(address);
      expect(reply.status === 200, `200 to the mail app (${reply.status}: ${reply.text.slice(0, 200)})`);
      expect(!reply.headers['set-cookie'], `no cookie (${reply.headers['set-cookie']})`);
      expect(reply.text.includes(`${reader.email} will no longer receive these emails.`), 'the reply says so');
    });

    await run.step('the email\'s Unsubscribe link: the preferences page shows nothing ticked (axe, 390 and 1280 px)', async () => {
      await rp.goto(footerLink(firstEmail, 'Unsubscribe'));
      await rp.getByRole('heading', { name: 'Your email preferences', level: 1 }).waitFor();
      await rp.getByText(`Choose the newsletters sent to ${reader.email}.`).waitFor();
      // What the reader reads first: they get nothing any more.
      await rp.getByText(`${reader.email} is not subscribed to any newsletter.`).waitFor();
      const box = rp.getByRole('checkbox', { name: newsletter });
      await box.waitFor();
      expect(!(await box.isChecked()), `${newsletter} is not ticked`);
      const ticked = await rp.getByRole('checkbox').evaluateAll((boxes) => boxes.filter((b) => b.checked).length);
      expect(ticked === 0, `no newsletter ticked (${ticked})`);
      await rp.getByRole('button', { name: 'Unsubscribe from all' }).waitFor();
      await atWidths(rp, rpShot, '145-unsubscribed-preferences', problems);
      // The preferences link shows the same.
      await rp.goto(footerLink(firstEmail, 'Manage your preferences'));
      await rp.getByRole('heading', { name: 'Your email preferences', level: 1 }).waitFor();
      expect(!(await rp.getByRole('checkbox', { name: newsletter }).isChecked()), 'not ticked on the preferences link either');
      noProblems(problems);
    });

    await run.step('the member has no newsletter in the dashboard; the newsletter counts one member', async () => {
      await page.goto(`${tenant}/dashboard/members/${readerId}`);
      await page.getByText('Signed up on the website').waitFor();
      await page.getByText('Not subscribed to any newsletter.').waitFor();
      await shot('146-member-unsubscribed');
      await page.goto(`${tenant}/dashboard/members`);
      await page.getByLabel('Search members').fill(reader.email);
      const row = page.getByRole('row').filter({ hasText: reader.email });
      await row.waitFor();
      const headers = await page.getByRole('columnheader').allTextContents();
      const column = headers.findIndex((h) => h.trim() === 'Newsletters');
      expect(column >= 0, `a Newsletters column (${headers})`);
      const cell = (await row.getByRole('cell').nth(column).innerText()).trim();
      expect(cell === 'None', `the row's Newsletters: ${cell}`);
      await page.goto(`${tenant}/dashboard/settings/newsletters`);
      await page.getByRole('row').filter({ hasText: newsletter }).getByText('1 member', { exact: true }).waitFor();
    });

    await run.step('the next send counts one member: the one who stayed gets it, the reader does not', async () => {
      await publishAndSend(secondTitle, 'A second post, for who is still subscribed.', '1 member');
      const got = await mail.waitFor(staying, new RegExp(secondTitle), 90_000);
      expect(got.subject === secondTitle, `the member who stayed gets it (${got.subject})`);
      const toReader = mail.messages().filter((m) => m.to.toLowerCase().includes(reader.email) && m.subject === secondTitle);
      expect(toReader.length === 0, 'nothing to the reader who left');
      const toRobot = mail.messages().filter((m) => m.to.toLowerCase().includes(robot));
      expect(toRobot.length === 0, `nothing ever to the robot (${toRobot.map((m) => m.subject)})`);
      expect(website.requests.some((r) => r.startsWith('GET /')), 'the website served its page');
    });
  } finally {
    await edContext?.close().catch(() => {});
    await readerContext?.close().catch(() => {});
    await website?.stop();
    // The website's address as it was before this flow.
    if (siteUrl && previousWebsite !== siteUrl) await call(page, 'PUT', '/api/client/site', { websiteUrl: previousWebsite ?? '' }).catch(() => {});
    await page.setViewportSize({ width: 1366, height: 900 });
  }
}
