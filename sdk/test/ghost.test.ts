/**
 * Ghost's own Content API client (`@tryghost/content-api`, as a website built on Ghost uses it)
 * against the real product (test/server.ts): the seeded demo company read through
 * /ghost/api/content/ with its Ghost content key. The client sends its requests with its own
 * HTTP stack (axios) unchanged; only the name `demo.localhost` is resolved to 127.0.0.1 here.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import GhostModule, { type GhostAPI, type PostOrPage } from '@tryghost/content-api';
import { demoStaff, loopbackFetch, startServer, type LiveServer } from './server.js';

// The package is CommonJS (`module.exports = GhostContentAPI`): its default import is the function,
// which its type declarations (written for bundlers) call `.default`.
const GhostContentAPI = GhostModule as unknown as typeof GhostModule.default;
// The axios instance the client's CommonJS build uses (the package's `main`).
const axios = createRequire(import.meta.url)('axios');

let server: LiveServer;
let ghost: GhostAPI;

function loopback(_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) {
  if (options && options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
}

before(async () => {
  axios.defaults.lookup = loopback;
  axios.defaults.proxy = false;
  server = await startServer();
  ghost = new GhostContentAPI({ url: server.baseUrl, key: server.ghostKey, version: 'v5.0' });
}, { timeout: 360_000 });

after(async () => {
  await server?.stop();
});

type Page<T> = T[] & { meta: { pagination: { page: number; limit: number | 'all'; pages: number; total: number; next: number | null; prev: number | null } } };

describe('Ghost Content API client against the real server', { timeout: 120_000 }, () => {
  it('browses posts with include, limit and page, in Ghost shapes', async () => {
    const posts = (await ghost.posts.browse({ include: ['tags', 'authors'], limit: 2, page: 1 })) as unknown as Page<PostOrPage>;
    assert.equal(posts.length, 2);
    assert.equal(posts.meta.pagination.page, 1);
    assert.equal(posts.meta.pagination.limit, 2);
    assert.ok(posts.meta.pagination.total >= 2, 'the demo company has published posts');
    for (const post of posts) {
      assert.match(post.id, /^[0-9a-f]{24}$/);
      assert.ok(Array.isArray(post.tags) && Array.isArray(post.authors));
      assert.equal(post.primary_author?.slug, post.authors?.[0]?.slug);
      // the demo company's postUrlTemplate is https://demo.example.com/blog/{slug}
      assert.equal(post.url, `https://demo.example.com/blog/${post.slug}`);
      assert.equal(typeof post.html, 'string');
    }
  });

  it('is sent its replies gzip-compressed, as Ghost sends them, and reads them', async () => {
    // axios asks for gzip by itself and unzips what it is sent (removing Content-Encoding from the
    // headers it hands on): the raw headers of the reply say what crossed the wire.
    const encodings: string[] = [];
    const interceptor = axios.interceptors.response.use((response: { request?: { res?: { rawHeaders?: string[] } } }) => {
      const raw = response.request?.res?.rawHeaders ?? [];
      for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === 'content-encoding') encodings.push(raw[i + 1]);
      return response;
    });
    try {
      const posts = (await ghost.posts.browse({ include: ['tags', 'authors'], limit: 2 })) as unknown as Page<PostOrPage>;
      assert.equal(posts.length, 2);
      assert.equal(typeof posts[0].html, 'string');
    } finally {
      axios.interceptors.response.eject(interceptor);
    }
    assert.deepEqual(encodings, ['gzip']);
  });

  it('filters posts with NQL: a tag, a negated tag, an author', async () => {
    const all = (await ghost.posts.browse({ include: ['tags', 'authors'], limit: 'all' })) as unknown as Page<PostOrPage>;
    const tagged = all.find((post) => post.primary_tag);
    assert.ok(tagged, 'a demo post has a tag');
    const slug = tagged.primary_tag!.slug;
    const withTag = (await ghost.posts.browse({ filter: `tag:${slug}`, include: 'tags', limit: 'all' })) as unknown as Page<PostOrPage>;
    assert.ok(withTag.length >= 1);
    assert.ok(withTag.every((post) => post.tags!.some((tag) => tag.slug === slug)));
    const without = (await ghost.posts.browse({ filter: `tag:-${slug}`, include: 'tags', limit: 'all' })) as unknown as Page<PostOrPage>;
    assert.equal(withTag.length + without.length, all.length);
    assert.ok(without.every((post) => !post.tags!.some((tag) => tag.slug === slug)));
    const author = tagged.primary_author!.slug;
    const byAuthor = (await ghost.posts.browse({ filter: `author:${author}+tag:${slug}`, include: 'authors', limit: 'all' })) as unknown as Page<PostOrPage>;
    assert.ok(byAuthor.length >= 1 && byAuthor.every((post) => post.primary_author!.slug === author));
  });

  it('reads a post by slug and by id', async () => {
    const [first] = (await ghost.posts.browse({ limit: 1 })) as unknown as Page<PostOrPage>;
    const bySlug = await ghost.posts.read({ slug: first.slug }, { formats: ['html', 'plaintext'] });
    assert.equal(bySlug.id, first.id);
    assert.ok((bySlug.plaintext ?? '').length > 0);
    const byId = await ghost.posts.read({ id: first.id });
    assert.equal(byId.slug, first.slug);
    assert.equal(byId.title, first.title);
  });

  it('browses and reads pages with pages.browse() and pages.read(), never among the posts', async () => {
    const pages = (await ghost.pages.browse({ include: ['tags', 'authors'] })) as unknown as Page<PostOrPage>;
    assert.deepEqual(pages.map((page) => page.slug), ['about'], 'the demo company has an About page');
    assert.equal(pages.meta.pagination.total, 1);
    const [about] = pages;
    assert.match(about.id, /^[0-9a-f]{24}$/);
    assert.equal(about.url, 'https://demo.example.com/about/', "a page lives at the website's root");
    assert.equal(about.primary_author?.slug, 'admin');
    const bySlug = await ghost.pages.read({ slug: 'about' });
    assert.equal(bySlug.id, about.id);
    assert.equal((await ghost.pages.read({ id: about.id })).slug, 'about');
    const posts = (await ghost.posts.browse({ limit: 'all', fields: 'slug' })) as unknown as Page<PostOrPage>;
    assert.ok(posts.every((post) => post.slug !== 'about'), 'no page among the posts');
    await assert.rejects(ghost.posts.read({ slug: 'about' }), (error: Error) => error.name === 'NotFoundError');
  });

  it('lists tags and authors with count.posts', async () => {
    const tags = (await ghost.tags.browse({ include: 'count.posts', limit: 'all' })) as unknown as Page<{ slug: string; count: { posts: number } }>;
    assert.ok(tags.length >= 1);
    assert.ok(tags.some((tag) => tag.count.posts > 0));
    const tag = await ghost.tags.read({ slug: tags[0].slug }, { include: 'count.posts' });
    assert.equal((tag as unknown as { count: { posts: number } }).count.posts, tags[0].count.posts);
    const authors = (await ghost.authors.browse({ include: 'count.posts' })) as unknown as Page<{ slug: string; count: { posts: number } }>;
    assert.ok(authors.length >= 1 && authors.every((author) => author.count.posts >= 1));
    const posts = (await ghost.posts.browse({ filter: `author:${authors[0].slug}`, limit: 'all' })) as unknown as Page<PostOrPage>;
    assert.equal(posts.length, authors[0].count.posts);
  });

  it('reads the settings', async () => {
    const settings = await ghost.settings.browse();
    assert.equal(settings.title, 'Demo Company');
    assert.equal(settings.url, 'https://demo.example.com/');
    assert.equal(settings.description, 'Notes, guides and news from the demo company.');
    assert.deepEqual(settings.navigation, [{ label: 'Home', url: '/' }, { label: 'Blog', url: '/blog/' }]);
    assert.deepEqual(settings.secondary_navigation, [{ label: 'RSS', url: '/feeds/rss.xml' }]);
    assert.equal(settings.twitter, '@demo');
    assert.equal(settings.lang, 'en');
  });

  it("reads an author's profile, and posts carry it", async () => {
    const author = await ghost.authors.read({ slug: 'admin' });
    assert.equal(author.name, 'Demo Admin');
    assert.equal(author.bio, "Writes the demo company's posts.");
    assert.equal(author.profile_image, 'https://demo.example.com/images/demo-admin.png');
    assert.equal(author.location, 'Lisbon');
    assert.equal(author.cover_image, null);
    const [post] = (await ghost.posts.browse({ filter: 'author:admin', include: 'authors', limit: 1 })) as unknown as Page<PostOrPage>;
    assert.equal(post.primary_author?.name, 'Demo Admin');
    assert.equal(post.primary_author?.bio, author.bio);
  });

  it('walks every post once, page by page', async () => {
    const everything = (await ghost.posts.browse({ limit: 'all', fields: 'id' })) as unknown as Page<PostOrPage>;
    const seen: string[] = [];
    let page: number | null = 1;
    while (page !== null) {
      const batch = (await ghost.posts.browse({ limit: 2, page, fields: 'id,slug' })) as unknown as Page<PostOrPage>;
      seen.push(...batch.map((post) => post.id));
      assert.ok(batch.meta.pagination.pages >= page);
      page = batch.meta.pagination.next;
    }
    assert.equal(new Set(seen).size, seen.length, 'no post twice');
    assert.deepEqual([...seen].sort(), everything.map((post) => post.id).sort());
  });

  it('a wrong key gets the client\'s error; a key that is not 26 hex digits is refused by the client itself', async () => {
    const wrong = new GhostContentAPI({ url: server.baseUrl, key: '0123456789abcdef0123456789', version: 'v5.0' });
    await assert.rejects(wrong.posts.browse(), (error: Error & { type?: string }) => {
      assert.equal(error.name, 'UnauthorizedError');
      assert.equal(error.message, 'Unknown Content API Key');
      return true;
    });
    // the content key of /api/v1 is no Ghost key: the client refuses its form
    assert.throws(() => new GhostContentAPI({ url: server.baseUrl, key: server.apiKey, version: 'v5.0' }), /26 hex/);
    await assert.rejects(ghost.posts.read({ slug: 'no-such-post' }), { name: 'NotFoundError' });
  });

  it('answers on the path the client calls for v5 and echoes Accept-Version', async () => {
    const fetch = loopbackFetch(server.port);
    const reply = await fetch(`${server.baseUrl}/ghost/api/content/tiers/?key=${server.ghostKey}`, {
      headers: { 'Accept-Version': 'v5.0' },
    });
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get('content-version'), 'v5.0');
    const body = (await reply.json()) as { tiers: { type: string }[] };
    assert.deepEqual(body.tiers.map((tier) => tier.type), ['free']);
  });

  it("filters the featured posts with featured:true, exactly them", async () => {
    const staff = await demoStaff(server);
    const all = (await ghost.posts.browse({ limit: 'all' })) as unknown as Page<PostOrPage>;
    assert.ok(all.length >= 2 && all.every((post) => post.featured === false));
    const chosen = all[0];
    const found = await staff('GET', `/api/posts/slug/${chosen.slug}`);
    assert.equal(found.status, 200, JSON.stringify(found.json));
    const put = await staff('PUT', `/api/posts/${found.json.id}`, { featured: true });  // (its fields at the top)
    assert.equal(put.status, 200, JSON.stringify(put.json));

    const featured = (await ghost.posts.browse({ filter: 'featured:true', limit: 'all' })) as unknown as Page<PostOrPage>;
    assert.deepEqual(featured.map((post) => post.id), [chosen.id]);
    assert.equal(featured[0].featured, true);
    assert.equal(featured.meta.pagination.total, 1);
    const rest = (await ghost.posts.browse({ filter: 'featured:false', limit: 'all' })) as unknown as Page<PostOrPage>;
    assert.deepEqual(rest.map((post) => post.id), all.slice(1).map((post) => post.id));
    const again = (await ghost.posts.browse({ limit: 'all' })) as unknown as Page<PostOrPage>;
    assert.deepEqual(again.filter((post) => post.featured).map((post) => post.id), [chosen.id]);
  });

  it('sees a translated post once, and reads its slug in the default language (or the locale asked)', async () => {
    const staff = await demoStaff(server);
    const languages = await staff('PUT', '/api/client/languages', { languages: ['en', 'fr'], defaultLanguage: 'en', fallbacks: {} });
    assert.equal(languages.status, 200, JSON.stringify(languages.json));
    const before = (await ghost.posts.browse({ limit: 'all' })) as unknown as Page<PostOrPage>;
    const english = before[before.length - 1];
    const source = await staff('GET', `/api/posts/slug/${english.slug}`);
    const made = await staff('POST', `/api/posts/${source.json.id}/translations`, { language: 'fr' });
    assert.equal(made.status, 201, JSON.stringify(made.json));
    const french = made.json.post;
    assert.equal(french.slug, english.slug, 'the translation keeps the slug, in French');
    const published = await staff('PUT', `/api/posts/${french.id}`, { title: 'Bienvenue', status: 'published' });
    assert.equal(published.status, 200, JSON.stringify(published.json));

    const after = (await ghost.posts.browse({ limit: 'all' })) as unknown as Page<PostOrPage>;
    assert.deepEqual(after.map((post) => post.id), before.map((post) => post.id), 'the translation is not listed beside it');
    assert.equal(after.filter((post) => post.slug === english.slug).length, 1);
    assert.equal(after.meta.pagination.total, before.meta.pagination.total);
    const read = await ghost.posts.read({ slug: english.slug });
    assert.equal(read.id, english.id);
    assert.equal(read.title, english.title);
    assert.equal(read.url, `https://demo.example.com/blog/${english.slug}`);

    // in French: the French post in its place, with its own address
    const options = { locale: 'fr' } as unknown as Parameters<typeof ghost.posts.read>[1];
    const inFrench = await ghost.posts.read({ slug: english.slug }, options);
    assert.equal(inFrench.title, 'Bienvenue');
    assert.notEqual(inFrench.id, english.id);
    assert.equal(inFrench.url, `https://demo.example.com/blog/${english.slug}?locale=fr`);
    const frenchList = (await ghost.posts.browse({ limit: 'all', ...(options as object) })) as unknown as Page<PostOrPage>;
    assert.equal(frenchList.length, before.length);
    assert.deepEqual(frenchList.filter((post) => post.slug === english.slug).map((post) => post.title), ['Bienvenue']);
    assert.equal((await ghost.posts.read({ id: inFrench.id })).title, 'Bienvenue', 'an id reads that row');
  });
});
