// Translations flow: add French to the company in Settings, translate a published post with AI
// (the offline provider: a marked machine-made draft), edit and publish the translation, then see
// both through the public content API (with and without ?locale=) and in the sitemap with hreflang.
// Screenshots at 390 and 1280 px.
import { expect } from './harness.mjs';

function call(page, method, url, body, headers = {}) {
  return page.evaluate(
    async ([m, u, b, h]) => {
      const auth = h['x-api-key'] ? {} : { Authorization: `Bearer ${localStorage.getItem('token')}` };
      const res = await fetch(u, { method: m, headers: { ...auth, 'Content-Type': 'application/json', ...h },
                                   body: b ? JSON.stringify(b) : undefined });
      const text = await res.text();
      let json = null;
      try { json = JSON.parse(text); } catch { /* XML */ }
      return { status: res.status, body: json, text };
    },
    [method, url, body, headers],
  );
}

async function both(page, shot, name) {
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(300);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow <= 1, `${name} at ${width} px: no sideways scrolling (${overflow} px)`);
    await shot(`${name}-${width}`);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

export async function translationsFlow({ run, page, tenant, sub, shot }) {
  const title = `Launch notes ${sub}`;
  const french = `Notes de lancement ${sub}`;
  let source = null;
  let translationId = '';
  let apiKey = '';

  await run.step('Settings: add French to the company', async () => {
    const info = await call(page, 'GET', '/api/client/info');
    apiKey = info.body.data.apiInfo.authentication.apiKey;
    const company = info.body.data.company;
    // The sitemap links to the company's website.
    const saved = await call(page, 'PUT', '/api/client/info', { name: company.name, contactName: company.contactName,
      contactEmail: company.contactEmail, websiteUrl: 'https://www.example.com',
      postUrlTemplate: 'https://www.example.com/{locale}/blog/{slug}' });
    expect(saved.status === 200, `website saved (${saved.status} ${saved.text.slice(0, 200)})`);
    await page.goto(`${tenant}/dashboard/settings`);
    const card = page.locator('section', { has: page.getByRole('heading', { name: 'Languages' }) });
    await card.getByLabel(/Add a language/).fill('fr');
    await card.getByRole('button', { name: 'Add', exact: true }).click();
    await card.getByRole('button', { name: 'Save languages' }).click();
    await page.getByText('Languages saved').waitFor();
    await card.getByText('français').waitFor();
    await card.getByText('falls back to en').waitFor();
    await card.scrollIntoViewIfNeeded();
    await both(page, shot, '80-settings-languages');
  });

  await run.step('a published English post (through the API)', async () => {
    // A category of its own: the other flows' categories stay unused (the screens flow deletes one).
    const category = await call(page, 'POST', '/api/categories/add', { name: `Release notes ${sub}`, slug: `release-notes-${sub}` });
    expect(category.status === 201, `category created (${category.status} ${category.text.slice(0, 200)})`);
    const media = (await call(page, 'GET', '/api/media')).body.media;
    const created = await call(page, 'POST', '/api/posts/upload', {
      postTitle: title, postExcerpt: 'What changed in this release.',
      postContent: `<h2>What is new</h2><p>Read <a href="https://www.example.com/guide">the guide</a>.</p><p><img src="${media[0].cdnUrl}" alt="Cover"></p>`,
      customSlug: `launch-notes-${sub}`, postStatus: 'published', categories: [category.body.category.id], tags: [],
      featuredMediaId: media[0].id, allowIndexing: true, scheduledPublishDate: '', videoId: '',
      seoMetadata: { title: 'Launch notes', description: 'What changed', canonicalUrl: '', focusKeyword: '' },
    });
    expect(created.status === 201, `post created (${created.status} ${created.text.slice(0, 200)})`);
    source = created.body.post;
    expect(source.language === 'en', `the post is English (${source.language})`);
  });

  await run.step('Translate with AI from the post editor', async () => {
    await page.goto(`${tenant}/dashboard/posts/edit/${source.id}`);
    const panel = page.getByTestId('translations');
    await panel.waitFor();
    await panel.getByLabel('Translate into').selectOption('fr');
    await both(page, shot, '81-post-translations-panel');
    await panel.getByRole('button', { name: 'Translate with AI' }).click();
    await page.getByText('Machine-made draft created').waitFor({ timeout: 60_000 });
    await page.waitForURL((url) => url.pathname.startsWith('/dashboard/posts/edit/') && !url.pathname.endsWith(source.id));
    translationId = page.url().split('/').pop();
    await page.getByRole('heading', { name: /\[fr, machine draft\]/ }).waitFor();
    await page.locator('.ck-editor__editable').waitFor();
    const html = await page.locator('.ck-editor__editable').innerHTML();
    expect(html.includes('Machine-made draft'), 'the draft says it is machine-made');
    expect(html.includes('https://www.example.com/guide'), 'the link is kept');
    expect(html.includes('<img'), 'the image is kept');
    await both(page, shot, '82-machine-draft');
  });

  await run.step('edit and publish the translation', async () => {
    await page.getByLabel('Title').fill(french);
    await page.getByLabel('Status').selectOption('published');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.waitForURL(`${tenant}/dashboard/posts`);
    await page.getByLabel('Language').selectOption('fr');
    await page.getByRole('link', { name: french, exact: true }).waitFor();
    await both(page, shot, '83-posts-list-french');
  });

  await run.step('the public API serves both, and the sitemap lists both with hreflang', async () => {
    const key = { 'x-api-key': apiKey };
    const plain = await call(page, 'GET', '/api/v1/posts?limit=50', null, key);
    expect(plain.status === 200, `public list (${plain.status})`);
    const english = plain.body.data.posts.find((p) => p.id === source.id);
    expect(english && english.locale === undefined, 'without a locale: the English post, as always (no locale key)');
    expect(!plain.body.data.posts.some((p) => p.id === translationId), 'without a locale: not the French one');
    const fr = await call(page, 'GET', '/api/v1/posts?limit=50&locale=fr', null, key);
    const served = fr.body.data.posts.find((p) => p.id === translationId);
    expect(served && served.locale === 'fr' && served.title === french, `locale=fr serves the translation (${JSON.stringify(served)})`);
    expect(served.translations.length === 2, `with its translations (${JSON.stringify(served.translations)})`);
    const bySlug = await call(page, 'GET', `/api/v1/posts/slug/${source.slug}?locale=fr`, null, key);
    expect(bySlug.body.data.post.id === translationId, 'the English slug with locale=fr serves the French post');
    const sitemap = await call(page, 'GET', '/sitemap.xml');
    expect(sitemap.status === 200, `sitemap (${sitemap.status} ${sitemap.text.slice(0, 200)})`);
    expect(sitemap.text.includes(`https://www.example.com/en/blog/${source.slug}`), 'the English address');
    expect(sitemap.text.includes(`https://www.example.com/fr/blog/${served.slug}`), 'the French address');
    expect(sitemap.text.includes('hreflang="fr"') && sitemap.text.includes('hreflang="x-default"'), 'hreflang alternates');
    // Chromium's XML viewer is not screenshotted reliably: the document as text in a page of its own.
    await page.setContent(`<pre style="white-space: pre-wrap; word-break: break-all; font-size: 12px"></pre>`);
    await page.locator('pre').evaluate((el, text) => { el.textContent = text.replaceAll('><', '>\n<'); }, sitemap.text);
    await both(page, shot, '84-sitemap');
  });
}
