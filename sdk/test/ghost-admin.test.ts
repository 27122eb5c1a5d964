/**
 * Ghost's own Admin API client (`@tryghost/admin-api`, as the tools that publish to Ghost use it)
 * against the real product (test/server.ts): an integration made by the demo company's admin
 * through the dashboard API (POST /api/integrations), then posts, pages, tags and images written
 * through /ghost/api/admin/ with its Admin API key, and read back through Ghost's Content API
 * client (`@tryghost/content-api`). Both clients send their requests with their own HTTP stack
 * (axios) unchanged; only the name `demo.localhost` is resolved to 127.0.0.1 here.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import GhostModule, { type GhostAPI } from '@tryghost/content-api';
import { loopbackFetch, startServer, type LiveServer } from './server.js';

const require = createRequire(import.meta.url);
// Both packages are CommonJS; the Admin API client has no type declarations: what is used of it is
// typed here.
const GhostContentAPI = GhostModule as unknown as typeof GhostModule.default;
const axios = require('axios');
const jsonwebtoken = require('jsonwebtoken');

interface AdminPost {
  id: string;
  uuid: string;
  title: string;
  slug: string;
  html?: string;
  status: string;
  published_at: string | null;
  updated_at: string;
  feature_image: string | null;
  tags: { id: string; name: string; slug: string }[];
  authors: { slug: string }[];
}
interface Resource<T> {
  add(data: Record<string, unknown>, options?: Record<string, unknown>): Promise<T>;
  edit(data: Record<string, unknown>, options?: Record<string, unknown>): Promise<T>;
  read(data: Record<string, unknown>, options?: Record<string, unknown>): Promise<T>;
  browse(options?: Record<string, unknown>): Promise<T[]>;
  delete(data: Record<string, unknown>): Promise<unknown>;
}
interface GhostAdmin {
  posts: Resource<AdminPost>;
  pages: Resource<AdminPost>;
  tags: Resource<{ id: string; name: string; slug: string }>;
  images: { upload(data: { file: string; ref?: string }): Promise<{ url: string; ref: string | null }> };
  site: { read(): Promise<{ title: string; url: string; version: string }> };
}
type GhostError = Error & { type?: string; code?: string; message: string };
const GhostAdminAPI = require('@tryghost/admin-api') as (options: Record<string, unknown>) => GhostAdmin;

// A PNG of 1x1 pixel.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let server: LiveServer;
let admin: GhostAdmin;
let adminKey: string;
let content: GhostAPI;
let workDir: string;

function loopback(_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) {
  if (options && options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
}

/** The demo company's admin makes an integration in Settings -> Integrations (the dashboard API). */
async function makeIntegration(name: string): Promise<{ adminKey: string; contentKey: string }> {
  const fetch = loopbackFetch(server.port);
  const login = await fetch(`${server.baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.com', password: 'admin12345' }),
  });
  assert.equal(login.status, 200);
  const { token } = (await login.json()) as { token: string };
  const made = await fetch(`${server.baseUrl}/api/integrations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name }),
  });
  assert.equal(made.status, 201);
  const { integration } = (await made.json()) as { integration: { adminKey: string; contentKey: string } };
  assert.match(integration.adminKey, /^[0-9a-f]{24}:[0-9a-f]{64}$/);
  assert.match(integration.contentKey, /^[0-9a-f]{26}$/);
  return integration;
}

before(async () => {
  axios.defaults.lookup = loopback;
  axios.defaults.proxy = false;
  server = await startServer();
  ({ adminKey } = await makeIntegration('SDK publisher'));
  admin = GhostAdminAPI({ url: server.baseUrl, key: adminKey, version: 'v5.0' });
  content = new GhostContentAPI({ url: server.baseUrl, key: server.ghostKey, version: 'v5.0' });
  workDir = mkdtempSync(path.join(tmpdir(), 'ghost-admin-'));
}, { timeout: 360_000 });

after(async () => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
  await server?.stop();
});

describe('Ghost Admin API client against the real server', { timeout: 120_000 }, () => {
  it('creates a post from HTML with tags and an uploaded feature image, edits, schedules, publishes and deletes it', async () => {
    const file = path.join(workDir, 'cover.png');
    writeFileSync(file, PNG);
    const image = await admin.images.upload({ file, ref: 'cover.png' });
    assert.equal(image.ref, 'cover.png');
    assert.ok(image.url.startsWith(`${server.baseUrl}/media/`), image.url);

    const created = await admin.posts.add(
      {
        title: 'Written in a tool',
        html: '<p>Hello from <strong>Ghost</strong>\'s client<script>alert(1)</script></p>',
        tags: ['Tools', { name: 'Writing' }],
        feature_image: image.url,
        status: 'draft',
      },
      { source: 'html' },
    );
    assert.equal(created.status, 'draft');
    assert.equal(created.slug, 'written-in-a-tool');
    assert.equal(created.html, "<p>Hello from <strong>Ghost</strong>'s client</p>");
    assert.equal(created.feature_image, image.url);
    // its tags, and the default category: a post without a category is put there
    assert.deepEqual(created.tags.map((tag) => tag.name).sort(), ['Tools', 'Uncategorized', 'Writing']);

    const edited = await admin.posts.edit({ id: created.id, updated_at: created.updated_at, title: 'Written and edited' });
    assert.equal(edited.title, 'Written and edited');
    await assert.rejects(
      admin.posts.edit({ id: created.id, updated_at: created.updated_at, title: 'From a stale copy' }),
      (error: GhostError) => {
        assert.equal(error.name, 'UpdateCollisionError');
        assert.equal(error.message, 'Saving failed! Someone else is editing this post.');
        return true;
      },
    );

    const due = new Date(Date.now() + 3 * 24 * 3600 * 1000);
    due.setUTCMilliseconds(0);
    const scheduled = await admin.posts.edit({
      id: created.id,
      updated_at: edited.updated_at,
      status: 'scheduled',
      published_at: due.toISOString(),
    });
    assert.equal(scheduled.status, 'scheduled');
    assert.equal(new Date(scheduled.published_at as string).getTime(), due.getTime());
    await assert.rejects(content.posts.read({ id: created.id }), { name: 'NotFoundError' });

    const published = await admin.posts.edit({ id: created.id, updated_at: scheduled.updated_at, status: 'published' });
    assert.equal(published.status, 'published');
    assert.ok(new Date(published.published_at as string).getTime() < due.getTime(), 'published now, not on the date');

    // the website reads it through Ghost's Content API client
    const read = await content.posts.read({ id: created.id }, { include: ['tags', 'authors'] });
    assert.equal(read.title, 'Written and edited');
    assert.equal(read.html, "<p>Hello from <strong>Ghost</strong>'s client</p>");
    assert.equal(read.feature_image, image.url);
    assert.deepEqual(read.tags?.map((tag) => tag.name).sort(), ['Tools', 'Uncategorized', 'Writing']);
    const bySlug = await admin.posts.read({ slug: 'written-in-a-tool' });
    assert.equal(bySlug.id, created.id);

    await admin.posts.delete({ id: created.id });
    await assert.rejects(admin.posts.read({ id: created.id }), { name: 'NotFoundError' });
    await assert.rejects(content.posts.read({ id: created.id }), { name: 'NotFoundError' });
  });

  it('creates and reads a page', async () => {
    const page = await admin.pages.add({ title: 'Colophon', html: '<p>Set in a tool.</p>', status: 'published' }, { source: 'html' });
    assert.equal(page.status, 'published');
    const read = await admin.pages.read({ id: page.id });
    assert.equal(read.title, 'Colophon');
    assert.equal(read.html, '<p>Set in a tool.</p>');
    const website = await content.pages.read({ slug: 'colophon' });
    assert.equal(website.id, page.id);
    await assert.rejects(admin.posts.read({ id: page.id }), { name: 'NotFoundError' });
  });

  it('browses posts with a filter and reads tags, users and the site', async () => {
    const posts = await admin.posts.browse({ filter: 'status:published', limit: 2 });
    assert.ok(posts.length > 0 && posts.length <= 2);
    assert.ok(posts.every((post) => post.status === 'published'));
    const tags = await admin.tags.browse({ limit: 'all' });
    assert.ok(tags.some((tag) => tag.slug === 'tools'));
    const site = await admin.site.read();
    assert.equal(site.url, 'https://demo.example.com/');
    assert.match(site.version, /^5\./);
  });

  it('refuses a wrong key and an expired token with Ghost\'s errors', async () => {
    const wrong = GhostAdminAPI({ url: server.baseUrl, key: `${'0'.repeat(24)}:${'0'.repeat(64)}`, version: 'v5.0' });
    await assert.rejects(wrong.posts.browse(), (error: GhostError) => {
      assert.equal(error.name, 'UnauthorizedError');
      assert.equal(error.code, 'UNKNOWN_ADMIN_API_KEY');
      assert.equal(error.message, 'Unknown Admin API Key');
      return true;
    });
    const expired = GhostAdminAPI({
      url: server.baseUrl,
      key: adminKey,
      version: 'v5.0',
      generateToken(key: string, audience: string) {
        const [id, secret] = key.split(':');
        const issued = Math.floor(Date.now() / 1000) - 600;
        return jsonwebtoken.sign({ iat: issued, exp: issued + 300 }, Buffer.from(secret, 'hex'), {
          keyid: id,
          algorithm: 'HS256',
          audience,
        });
      },
    });
    await assert.rejects(expired.posts.browse(), (error: GhostError) => {
      assert.equal(error.name, 'UnauthorizedError');
      assert.equal(error.code, 'INVALID_JWT');
      assert.equal(error.message, 'Invalid token: jwt expired');
      return true;
    });
  });
});
