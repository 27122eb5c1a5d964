/** The SDK against the real product (test/server.ts): the seeded demo company's content. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Author,
  ContentClient,
  ContentErrorException,
  type EtagCache,
  type NavigationLink,
  type Page,
  type PagesPage,
  type Post,
  type PostImage,
  type PostsPage,
  type PostStatus,
  type ReadOptions,
  type SiteSettings,
} from '../src/index.js';
import { demoMemberToken, demoStaff, loopbackFetch, startServer, type LiveServer } from './server.js';

let server: LiveServer;
let client: ContentClient;

function clientWith(apiKey: string, cache?: EtagCache): ContentClient {
  return new ContentClient({ baseUrl: server.baseUrl, apiKey, cache, fetch: loopbackFetch(server.port) });
}

function ok<T>(reply: { ok: true; data: T } | { ok: false; error: unknown }): T {
  assert.ok(reply.ok, `expected a success, got ${JSON.stringify(reply)}`);
  return reply.data;
}

before(async () => {
  server = await startServer();
  client = clientWith(server.apiKey);
}, { timeout: 360_000 });

after(async () => {
  await server?.stop();
});

describe('content SDK against the real server', { timeout: 120_000 }, () => {
  it('lists published posts with their pagination', async () => {
    const page = ok(await client.listPosts({ page: 1, limit: 10 }));
    assert.ok(page.posts.length >= 2, 'the demo company has published posts');
    assert.ok(page.posts.every((post) => post.status === 'published'));
    assert.equal(page.pagination.currentPage, 1);
    assert.equal(page.pagination.total, page.posts.length);
    const post = page.posts[0];
    assert.equal(typeof post.slug, 'string');
    assert.ok(Array.isArray(post.categories) && Array.isArray(post.tags));
  });

  it('gets a post by its slug, with its content', async () => {
    const [first] = ok(await client.listPosts({ limit: 1 })).posts;
    const post = ok(await client.getPost(first.slug));
    assert.equal(post.id, first.id);
    assert.equal(post.title, first.title);
    assert.ok(post.content.length > 0);
  });

  it('reads posts in a language with `locale`: each says its locale and lists its translations', async () => {
    const page = ok(await client.listPosts({ limit: 5, locale: 'en' }));
    assert.ok(page.posts.length > 0);
    for (const post of page.posts) {
      assert.equal(post.locale, 'en');
      assert.deepEqual(post.translations, [{ locale: 'en', slug: post.slug }]);
    }
    const post = ok(await client.getPost(page.posts[0].slug, { locale: 'en' }));
    assert.equal(post.locale, 'en');
    const plain = ok(await client.getPost(page.posts[0].slug));
    assert.equal(plain.locale, undefined, 'without a locale the reply is as it always was');
    const bad = await client.listPosts({ locale: '!!' });
    assert.ok(!bad.ok && bad.error.status === 400 && bad.error.error === 'validation_error');
  });

  it('types each reply from the document: statuses, nullable fields, image addresses', async () => {
    const { posts } = ok(await client.listPosts({ limit: 100 }));
    const statuses: PostStatus[] = posts.map((post) => post.status);
    assert.ok(statuses.every((status) => status === 'published'));
    const withImage = posts.find((post) => post.featuredImage !== null);
    assert.ok(withImage, 'the demo company has a post with a featured image');
    const post: Post = ok(await client.getPost(withImage.slug));
    const images: (PostImage | null)[] = [post.featuredImage, post.ogImage, post.twitterImage];
    for (const image of images) {
      if (image === null) continue;
      // `link` and `cdnUrl` are absolute addresses; `spacesKey` is the storage key they end with
      assert.match(image.link, /^https?:\/\//);
      assert.match(image.cdnUrl, /^https?:\/\//);
      assert.ok(image.link.endsWith(image.spacesKey));
    }
    assert.equal(post.featuredImage?.id, withImage.featuredImage?.id);
    const tracked = ok(await client.track({ pageUrl: 'https://demo.example.com/blog/' + post.slug, postSlug: post.slug }));
    assert.equal(tracked.success, true);
  });

  it('lists the posts of a category and of a tag', async () => {
    const { posts } = ok(await client.listPosts({ limit: 100 }));
    const withCategory = posts.find((post) => post.categories.length)!;
    const category = withCategory.categories[0];
    const inCategory = ok(await client.listPostsByCategory(category.slug));
    assert.ok(inCategory.posts.some((post) => post.id === withCategory.id));
    assert.ok(inCategory.posts.every((post) => post.categories.some((c) => c.slug === category.slug)));

    const withTag = posts.find((post) => post.tags.length)!;
    const tag = withTag.tags[0];
    const tagged = ok(await client.listPostsByTag(tag.slug));
    assert.ok(tagged.posts.some((post) => post.id === withTag.id));
    assert.ok(tagged.posts.every((post) => post.tags.some((t) => t.slug === tag.slug)));

    const categories = ok(await client.listCategories());
    assert.ok(categories.some((c) => c.slug === category.slug && c.postCount >= 1));
    const tags = ok(await client.listTags());
    assert.ok(tags.some((t) => t.slug === tag.slug && t.postCount >= 1));
  });

  it('reads the site settings, typed, cached like every read', async () => {
    const settings: SiteSettings = ok(await client.getSettings());
    assert.equal(settings.title, 'Demo Company', 'no site title set: the company name');
    assert.equal(settings.description, "Notes, guides and news from the demo company.");
    const navigation: NavigationLink[] = settings.navigation;
    assert.deepEqual(navigation, [{ label: 'Home', url: '/' }, { label: 'Blog', url: '/blog/' }]);
    assert.equal(settings.social.twitter, 'https://x.com/demo');
    assert.equal(settings.social.facebook, null);
    assert.equal(settings.url, 'https://demo.example.com');
    assert.equal(settings.language, 'en');
    assert.equal(settings.logo, null);
    const cache = new Map<string, { etag: string; data: unknown }>();
    const cached = clientWith(server.apiKey, cache);
    const first = await cached.getSettings();
    const again = await cached.getSettings();
    assert.ok(first.ok && again.ok && again.status === 304 && again.fromCache);
    assert.deepEqual(again.data, first.data);
  });

  it("gives each post's author with their profile, id and username kept", async () => {
    const { posts } = ok(await client.listPosts({ limit: 100 }));
    const author: Author | null = posts.find((post) => post.author?.username === 'admin')?.author ?? null;
    assert.ok(author, 'the demo admin wrote posts');
    assert.equal(typeof author.id, 'string');
    assert.equal(author.name, 'Demo Admin');
    assert.equal(author.bio, "Writes the demo company's posts.");
    assert.equal(author.profileImage, 'https://demo.example.com/images/demo-admin.png');
    assert.equal(author.coverImage, null);
  });

  it('reads the pages with pages.list() and pages.bySlug(), never among the posts', async () => {
    const list: PagesPage = ok(await client.pages.list());
    assert.deepEqual(list.pages.map((page) => page.slug), ['about'], 'the demo company has an About page');
    assert.equal(list.pagination.total, 1);
    const about: Page = ok(await client.pages.bySlug('about'));
    assert.equal(about.title, 'About');
    assert.deepEqual(about.categories, [], 'a page needs no category');
    assert.ok(about.content.includes('/api/v1/pages'));
    assert.deepEqual(ok(await client.getPage('about')), about);
    assert.deepEqual(ok(await client.listPages({ search: 'about' })).pages.map((page) => page.slug), ['about']);
    const { posts } = ok(await client.listPosts({ limit: 100 }));
    assert.ok(posts.length > 0 && posts.every((post) => post.slug !== 'about'), 'no page in the posts list');
    const notAPost = await client.getPost('about');
    assert.ok(!notAPost.ok && notAPost.error.status === 404 && notAPost.error.error === 'not_found');
    const notAPage = await client.pages.bySlug(posts[0].slug);
    assert.ok(!notAPage.ok && notAPage.error.status === 404);
    const drafts = await client.pages.list({ status: 'draft' });
    assert.ok(!drafts.ok && drafts.error.code === 'preview_key_required');
  });

  it('searches posts', async () => {
    const [first] = ok(await client.listPosts({ limit: 1 })).posts;
    const word = first.title.split(/\s+/).sort((a, b) => b.length - a.length)[0];
    const found = ok(await client.listPosts({ search: word }));
    assert.ok(found.posts.some((post) => post.id === first.id), `searching ${word}`);
    const none = ok(await client.listPosts({ search: 'zzqxnotawordanywhere' }));
    assert.deepEqual(none.posts, []);
    assert.equal(none.pagination.total, 0);
  });

  it('walks every page with the async iterator', async () => {
    const all = ok(await client.listPosts({ limit: 100 })).posts.map((post) => post.id);
    const pages: PostsPage[] = [];
    for await (const page of client.pages((query) => client.listPosts(query), { limit: 1 })) pages.push(page);
    assert.equal(pages.length, all.length);
    assert.deepEqual(pages.map((page) => page.pagination.currentPage), all.map((_, i) => i + 1));
    const walked: string[] = [];
    for await (const post of client.allPosts((query) => client.listPosts(query), { limit: 1 })) walked.push(post.id);
    assert.deepEqual(walked, all);
  });

  it('answers a wrong key with a typed 401, and a missing post or term with a typed 404', async () => {
    const stranger = clientWith('cms_live_not-a-key-of-anyone');
    const refused = await stranger.listPosts();
    assert.ok(!refused.ok);
    assert.equal(refused.error.status, 401);
    assert.equal(refused.error.error, 'unauthorized');
    assert.equal(refused.error.code, 'api_key_invalid');

    const missing = await client.getPost('no-such-post-anywhere');
    assert.ok(!missing.ok);
    assert.equal(missing.error.status, 404);
    assert.equal(missing.error.error, 'not_found');
    assert.equal(typeof missing.error.message, 'string');

    const noCategory = await client.listPostsByCategory('no-such-category');
    assert.ok(!noCategory.ok);
    assert.equal(noCategory.error.status, 404);
    const noTag = await client.listPostsByTag('no-such-tag');
    assert.ok(!noTag.ok);
    assert.equal(noTag.error.status, 404);

    await assert.rejects(
      async () => {
        for await (const page of stranger.pages((query) => stranger.listPosts(query))) void page;
      },
      (error: unknown) => error instanceof ContentErrorException && error.error.status === 401,
    );
  });

  it('drafts need the preview key: a typed 403 with the content key', async () => {
    const refused = await client.listPosts({ status: 'draft' });
    assert.ok(!refused.ok);
    assert.equal(refused.error.status, 403);
    assert.equal(refused.error.code, 'preview_key_required');
    const preview = clientWith(server.previewKey);
    ok(await preview.listPosts({ status: 'all' }));
  });

  it('reuses a cached reply on 304 (If-None-Match)', async () => {
    const cache = new Map<string, { etag: string; data: unknown }>();
    const seen: { status: number; ifNoneMatch: string | null }[] = [];
    const inner = loopbackFetch(server.port);
    const counting: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const response = await inner(request);
      seen.push({ status: response.status, ifNoneMatch: request.headers.get('If-None-Match') });
      return response;
    };
    const cached = new ContentClient({ baseUrl: server.baseUrl, apiKey: server.apiKey, cache, fetch: counting });

    const first = await cached.listPosts({ limit: 2 });
    assert.ok(first.ok && !first.fromCache && first.etag);
    const second = await cached.listPosts({ limit: 2 });
    assert.ok(second.ok);
    assert.equal(second.status, 304);
    assert.equal(second.fromCache, true);
    assert.deepEqual(second.data, first.data);
    assert.deepEqual(seen.map((s) => s.status), [200, 304]);
    assert.equal(seen[1].ifNoneMatch, first.etag);

    // Another query is another cache entry: no If-None-Match, a full reply.
    const other = await cached.listPosts({ limit: 1 });
    assert.ok(other.ok && !other.fromCache && other.status === 200);
    assert.equal(seen[2].ifNoneMatch, null);

    const post = await cached.getPost(first.data.posts[0].slug);
    const again = await cached.getPost(first.data.posts[0].slug);
    assert.ok(post.ok && again.ok && again.fromCache);
    assert.deepEqual(again.data, post.data);
  });

  it('lists the featured posts with `featured: true`, the others with `featured: false`, each typed', async () => {
    const staff = await demoStaff(server);
    const all = ok(await client.listPosts({ limit: 100 })).posts;
    assert.ok(all.every((post) => post.featured === false), 'the demo company features nothing yet');
    const chosen = all[all.length - 1];
    const put = await staff('PUT', `/api/posts/${chosen.id}`, { featured: true });
    assert.equal(put.status, 200, JSON.stringify(put.json));
    assert.equal(put.json.post.featured, true);

    const featured = ok(await client.listPosts({ featured: true }));
    assert.deepEqual(featured.posts.map((post) => post.slug), [chosen.slug]);
    const flag: boolean = featured.posts[0].featured; // typed from the document
    assert.equal(flag, true);
    assert.equal(featured.pagination.total, 1);
    const others = ok(await client.listPosts({ featured: false, limit: 100 }));
    assert.deepEqual(others.posts.map((post) => post.slug), all.filter((post) => post.id !== chosen.id).map((post) => post.slug));
    assert.equal(ok(await client.getPost(chosen.slug)).featured, true);
    const everything = ok(await client.listPosts({ limit: 100 }));
    assert.equal(everything.posts.length, all.length, 'without featured: every post, as before');
    const bad = await client.listPosts({ featured: 'yes' as unknown as boolean });
    assert.ok(!bad.ok && bad.error.status === 400 && bad.error.error === 'validation_error');
  });

  it('reads a members-only post: listed with its visibility, its content with a member token only, never kept by the ETag cache', async () => {
    const staff = await demoStaff(server);
    const all = ok(await client.listPosts({ limit: 100 })).posts;
    assert.ok(all.every((post) => post.visibility === 'public'), 'every demo post is public');
    const chosen = all[0];
    const body = ok(await client.getPost(chosen.slug)).content;
    assert.ok(body.length > 0);
    const put = await staff('PUT', `/api/posts/${chosen.id}`, { visibility: 'members' });
    assert.equal(put.status, 200, JSON.stringify(put.json));
    try {
      const cache = new Map();
      const cached = clientWith(server.apiKey, cache);
      const listed = ok(await cached.listPosts({ limit: 100 })).posts.find((post) => post.id === chosen.id)!;
      const visibility: 'public' | 'members' = listed.visibility; // typed from the document
      assert.equal(visibility, 'members');
      const anonymous = ok(await cached.getPost(chosen.slug));
      assert.equal(anonymous.content, '');
      assert.equal(anonymous.title, chosen.title);

      const token = demoMemberToken(server);
      const options: ReadOptions = { memberToken: token };
      const member = await cached.getPost(chosen.slug, {}, options);
      assert.ok(member.ok && !member.fromCache, 'a member read is not answered from the ETag cache');
      assert.equal(member.data.content, body);
      // The cache kept the anonymous reply only: the next anonymous read is a 304 of it, without the body.
      const again = await cached.getPost(chosen.slug);
      assert.ok(again.ok && again.fromCache && again.status === 304);
      assert.equal(again.data.content, '');
      // Another company's, forged or no token: no body, never an error.
      assert.equal(ok(await client.getPost(chosen.slug, {}, { memberToken: 'forged' })).content, '');
      assert.equal(ok(await client.getPost(chosen.slug, {}, { memberToken: token })).content, body);
    } finally {
      const back = await staff('PUT', `/api/posts/${chosen.id}`, { visibility: 'public' });
      assert.equal(back.status, 200, JSON.stringify(back.json));
    }
  });
});
