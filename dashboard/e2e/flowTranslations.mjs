// Translations flow: add French to the company in Settings, translate a published post with AI
// (the offline provider: a marked machine-made draft), edit and publish the translation, then see
// both through the public content API (with and without ?locale=) and in the sitemap with hreflang.
// Then a French name for the post's category (its form) and a French alt text for its image (the
// media details dialog), seen through the public API with ?locale=fr and in the French category feed.
// Screenshots at 390 and 1280 px; the new forms axe-clean at both widths.
import { axeViolations, layoutProblems } from './flowScreens.mjs';
import { expect } from './harness.mjs';

function call(page, method, url, body, headers = {}) {
  return page.evaluate(
    async ([m, u, b, h]) => {
      const auth = h['x-api-key'] ? {} : { Authorization: `Bearer ${localStorage.getItem('token')}` };
      // no-store: the public API's replies may be kept by the browser (Cache-Control: max-age), and
      // the flow reads the same address again after a change
      const res = await fetch(u, { method: m, headers: { ...auth, 'Content-Type': 'application/json', ...h },
                                   body: b ? JSON.stringify(b) : undefined, cache: 'no-store' });
      const text = await res.text();
      let json = null;
      try { json = JSON.parse(text); } catch { /* XML */ }
      return { status: res.status, body: json, text };
    },
    [method, url, body, headers],
  );
}

async function both(page, shot, name, { axe = false } = {}) {
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(300);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow <= 1, `${name} at ${width} px: no sideways scrolling (${overflow} px)`);
    if (axe) {
      const problems = [...(await layoutProblems(page)),
        ...(await axeViolations(page)).map((v) => `axe ${v.impact} ${v.id}: ${v.nodes.join(' | ')}`)];
      expect(problems.length === 0, `${name} at ${width} px: ${problems.join('; ')}`);
    }
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
  let category = null;
  let image = null;

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
    const made = await call(page, 'POST', '/api/categories/add', { name: `Release notes ${sub}`, slug: `release-notes-${sub}` });
    expect(made.status === 201, `category created (${made.status} ${made.text.slice(0, 200)})`);
    category = made.body.category;
    const media = (await call(page, 'GET', '/api/media')).body.media;
    image = media[0];
    const created = await call(page, 'POST', '/api/posts/upload', {
      postTitle: title, postExcerpt: 'What changed in this release.',
      postContent: `<h2>What is new</h2><p>Read <a href="https://www.example.com/guide">the guide</a>.</p><p><img src="${media[0].cdnUrl}" alt="Cover"></p>`,
      customSlug: `launch-notes-${sub}`, postStatus: 'published', categories: [category.id], tags: [],
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

  const frenchName = `Notes de version ${sub}`;
  const frenchAlt = `Capture du tableau de bord ${sub}`;
  await run.step('a French name for the category (its form)', async () => {
    await page.goto(`${tenant}/dashboard/categories/edit/${category.id}`);
    const group = page.getByRole('group', { name: 'Translations' });
    await group.waitFor();
    await group.getByLabel('Name in français (fr)').fill(frenchName);
    await both(page, shot, '85-category-translations', { axe: true });
    await page.getByRole('button', { name: 'Update Category' }).click();
    await page.getByText('Category updated successfully').waitFor();
    await page.waitForURL(`${tenant}/dashboard/categories`);
    const saved = await call(page, 'GET', `/api/categories/${category.id}`);
    expect(saved.body.category.translations?.fr?.name === frenchName, `saved (${JSON.stringify(saved.body.category.translations)})`);
    category = saved.body.category;
  });

  await run.step('a French alt text for the image (media details)', async () => {
    await page.goto(`${tenant}/dashboard/media`);
    await page.getByRole('button', { name: image.fileName }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Media Details' });
    await dialog.getByLabel('Alt text in français (fr)').fill(frenchAlt);
    await both(page, shot, '86-media-alt-texts', { axe: true });
    await dialog.getByRole('button', { name: 'Save alt text' }).click();
    await page.getByText('Alt text saved').waitFor();
    await dialog.getByRole('button', { name: 'Save alt text' }).and(page.locator(':disabled')).waitFor();
  });

  await run.step('the public API and the French category feed use them with locale=fr', async () => {
    const key = { 'x-api-key': apiKey };
    const fr = await call(page, 'GET', `/api/v1/posts/slug/${source.slug}?locale=fr`, null, key);
    const post = fr.body.data.post;
    expect(post.id === translationId, 'locale=fr serves the French post');
    expect(post.categories.some((c) => c.name === frenchName && c.slug === category.translations.fr.slug),
      `the French category name and slug (${JSON.stringify(post.categories)})`);
    expect(post.featuredImage?.altText === frenchAlt, `the French alt text (${JSON.stringify(post.featuredImage)})`);
    const plain = await call(page, 'GET', `/api/v1/posts/slug/${source.slug}`, null, key);
    expect(plain.body.data.post.categories.some((c) => c.name === `Release notes ${sub}`), 'without a locale: the stored name');
    expect(plain.body.data.post.featuredImage?.altText !== frenchAlt, 'without a locale: the stored alt text');
    const list = await call(page, 'GET', `/api/v1/posts/category/${category.translations.fr.slug}?locale=fr`, null, key);
    expect(list.status === 200 && list.body.data.posts.some((p) => p.id === translationId), `the category by its French slug (${list.status})`);
    const rss = await call(page, 'GET', `/feeds/fr/category/${category.translations.fr.slug}/rss.xml`);
    expect(rss.status === 200, `the French category feed (${rss.status} ${rss.text.slice(0, 200)})`);
    expect(rss.text.includes(frenchName) && rss.text.includes(french), 'the French feed names the category in French and lists the translation');
    expect(!rss.text.includes(`<title>${title}</title>`), 'and not the English post');
  });
}
