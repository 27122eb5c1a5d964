/**
 * Typed client of the CMS public content API (`/api/v1` on a company's host, `x-api-key`).
 *
 * Paths, parameters, replies and the error envelope come from the types generated from
 * openapi/public.json (src/schema.d.ts, `npm run gen:api`); calls go through openapi-fetch, so a
 * path or a parameter the document does not have is a type error, and each reply is typed by the
 * document's schema of its 200 answer.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema.js';
import type { Category, Page, PagesPage, Post, PostsPage, SiteSettings, Tag, TrackReply } from './replies.js';

export type * from './replies.js';
export type { components, paths } from './schema.js';

/** The error envelope of the API: `{success: false, message, error, code?, errors?}`. */
export type ErrorEnvelope = components['schemas']['ErrorOut'];
/** The envelope's specific code (api_key_invalid, preview_key_required, ...). */
export type ErrorCode = NonNullable<ErrorEnvelope['code']>;
/** A posts list's query: `page`, `limit`, `status`, `search`, `locale`, and `featured` (true: the
 * featured posts only; false: the others; left out: every post). */
export type PostsQuery = components['schemas']['PostsQuery'];
/** A category's or tag's posts: a PostsQuery without `search`. */
export type PageQuery = components['schemas']['PageQuery'];
/** `locale`: a BCP 47 code (`fr`, `pt-BR`); lists and posts are then served in that language. */
export type LocaleQuery = components['schemas']['LocaleQuery'];
export type TrackBody = components['schemas']['TrackIn'];

/** Options of a post's or page's read (getPost, getPage, pages.bySlug). */
export interface ReadOptions {
  /**
   * A signed-in member's token (what POST /api/v1/members/session answered), sent as
   * `X-Member-Token`: a members-only post's (`visibility: 'members'`) `content` comes with a valid
   * one of the company; without it, or with an invalid one, `content` is `""`. Such a read is never
   * kept by nor answered from the ETag cache (its reply is the member's alone).
   */
  memberToken?: string;
}

/** A failed call as a value: the HTTP status and the envelope (a network failure has status 0). */
export interface ContentError {
  status: number;
  error: string;
  code?: ErrorCode;
  message: string;
  errors?: ErrorEnvelope['errors'];
  /** Seconds to wait, from Retry-After (429, 503). */
  retryAfter?: number;
}

/** Every call resolves to one of these; it never throws for an HTTP error. */
export type Result<T> =
  | { ok: true; data: T; status: number; etag?: string; fromCache: boolean }
  | { ok: false; error: ContentError; data?: undefined };

/** Where replies are kept for ETag reuse: a Map works; so does anything with get/set. */
export interface EtagCache {
  get(url: string): { etag: string; data: unknown } | undefined;
  set(url: string, entry: { etag: string; data: unknown }): unknown;
}

export interface ContentClientOptions {
  /** The company's site origin, e.g. `https://acme.example.com` (the paths start with /api/v1). */
  baseUrl: string;
  /** The company's content key (or its preview key, which also reads drafts). */
  apiKey: string;
  /** When given, GETs send If-None-Match for a kept reply; a 304 returns the kept value. */
  cache?: EtagCache;
  /** Another fetch (tests, a proxy agent). */
  fetch?: typeof globalThis.fetch;
}

type Query = Record<string, string | number | boolean | undefined | null>;

function retryAfter(response: Response): number | undefined {
  const value = Number(response.headers.get('Retry-After'));
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

function toError(status: number, body: unknown, response?: Response): ContentError {
  const envelope = (body && typeof body === 'object' ? body : {}) as Partial<ErrorEnvelope>;
  return {
    status,
    error: typeof envelope.error === 'string' ? envelope.error : status ? 'http_error' : 'network_error',
    code: envelope.code,
    message: typeof envelope.message === 'string' ? envelope.message : `Request failed with status ${status}`,
    errors: envelope.errors,
    retryAfter: response ? retryAfter(response) : undefined,
  };
}

export class ContentClient {
  /** The underlying openapi-fetch client (typed by the document), the key header already set. */
  readonly raw: Client<paths>;
  private readonly cache?: EtagCache;

  /**
   * The company's pages (About, Contact: GET pages, GET pages/slug/{slug}), as `pages.list()` and
   * `pages.bySlug()`. Called as a function it is the page iterator of a posts list (below), as it
   * always was: `for await (const page of client.pages((q) => client.listPosts(q)))`.
   */
  readonly pages: PageIterator & PagesApi;

  constructor(options: ContentClientOptions) {
    this.cache = options.cache;
    this.raw = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      headers: { 'x-api-key': options.apiKey, Accept: 'application/json' },
      fetch: options.fetch,
    });
    const iterate: PageIterator = (list, query) => this.eachPageOf(list, query);
    this.pages = Object.assign(iterate, {
      list: (query: PostsQuery = {}) => this.listPages(query),
      bySlug: (slug: string, query: LocaleQuery = {}, options: ReadOptions = {}) => this.getPage(slug, query, options),
    });
  }

  /** GET posts: published posts, newest first (`search` matches title, excerpt and content;
   * `featured: true` lists the featured posts, `false` the others; each post says its `featured`). */
  listPosts(query: PostsQuery = {}): Promise<Result<PostsPage>> {
    return this.run(cacheKey('/api/v1/posts', query), (headers) =>
      this.raw.GET('/api/v1/posts', { params: { query }, headers }),
    );
  }

  /** GET posts/slug/{slug}: one published post (any status with the preview key). With `locale`,
   * the best translation of the post along the company's fallback chain for that language; the
   * post then says its `locale` and lists its `translations`. A members-only post (`visibility:
   * 'members'`) has its `content` only with `options.memberToken` (a valid member token), else `""`. */
  async getPost(slug: string, query: LocaleQuery = {}, options: ReadOptions = {}): Promise<Result<Post>> {
    const member = memberHeader(options);
    const reply = await this.run(
      cacheKey(`/api/v1/posts/slug/${encodeURIComponent(slug)}`, query),
      (headers) => this.raw.GET('/api/v1/posts/slug/{slug}', { params: { path: { slug }, query }, headers: { ...headers, ...member } }),
      { cached: !member },
    );
    return reply.ok ? { ...reply, data: reply.data.post } : reply;
  }

  /** GET posts/category/{slug}: 404 (not_found) when there is no such category. */
  listPostsByCategory(slug: string, query: PageQuery = {}): Promise<Result<PostsPage>> {
    return this.run(cacheKey(`/api/v1/posts/category/${encodeURIComponent(slug)}`, query), (headers) =>
      this.raw.GET('/api/v1/posts/category/{slug}', { params: { path: { slug }, query }, headers }),
    );
  }

  /** GET posts/tag/{slug}: 404 (not_found) when there is no such tag. */
  listPostsByTag(slug: string, query: PageQuery = {}): Promise<Result<PostsPage>> {
    return this.run(cacheKey(`/api/v1/posts/tag/${encodeURIComponent(slug)}`, query), (headers) =>
      this.raw.GET('/api/v1/posts/tag/{slug}', { params: { path: { slug }, query }, headers }),
    );
  }

  /** GET pages: published pages (any status with the preview key), newest first; `search`, `locale`,
   * `page` and `limit` as a posts list's. Pages are never in a posts list, nor posts in this one. */
  listPages(query: PostsQuery = {}): Promise<Result<PagesPage>> {
    return this.run(cacheKey('/api/v1/pages', query), (headers) =>
      this.raw.GET('/api/v1/pages', { params: { query }, headers }),
    );
  }

  /** GET pages/slug/{slug}: one published page (any status with the preview key), a post's object;
   * `locale` as getPost's. A post's slug is 404 here (and a page's on getPost). */
  async getPage(slug: string, query: LocaleQuery = {}, options: ReadOptions = {}): Promise<Result<Page>> {
    const member = memberHeader(options);
    const reply = await this.run(
      cacheKey(`/api/v1/pages/slug/${encodeURIComponent(slug)}`, query),
      (headers) => this.raw.GET('/api/v1/pages/slug/{slug}', { params: { path: { slug }, query }, headers: { ...headers, ...member } }),
      { cached: !member },
    );
    return reply.ok ? { ...reply, data: reply.data.page } : reply;
  }

  /** GET categories, with their published post counts. */
  async listCategories(): Promise<Result<Category[]>> {
    const reply = await this.run(cacheKey('/api/v1/categories'), (headers) =>
      this.raw.GET('/api/v1/categories', { headers }),
    );
    return reply.ok ? { ...reply, data: reply.data.categories } : reply;
  }

  /** GET tags, with their published post counts. */
  async listTags(): Promise<Result<Tag[]>> {
    const reply = await this.run(cacheKey('/api/v1/tags'), (headers) => this.raw.GET('/api/v1/tags', { headers }));
    return reply.ok ? { ...reply, data: reply.data.tags } : reply;
  }

  /** GET settings: the company's site settings (title, description, logo, icon and cover image as
   * addresses, accent color, languages, navigation, social accounts, website and post URL template). */
  async getSettings(): Promise<Result<SiteSettings>> {
    const reply = await this.run(cacheKey('/api/v1/settings'), (headers) => this.raw.GET('/api/v1/settings', { headers }));
    return reply.ok ? { ...reply, data: reply.data.settings } : reply;
  }

  /** POST analytics/track: a page view of the website. */
  async track(body: TrackBody): Promise<Result<TrackReply>> {
    try {
      const { data, error, response } = await this.raw.POST('/api/v1/analytics/track', { body });
      if (!response.ok || !data) return { ok: false, error: toError(response.status, error, response) };
      return { ok: true, data, status: response.status, fromCache: false };
    } catch (cause) {
      return { ok: false, error: { ...toError(0, undefined), message: String(cause) } };
    }
  }

  /**
   * Every page of a posts list, one after the other, until the last page:
   * `for await (const page of client.pages((q) => client.listPosts(q), { limit: 50 }))`.
   * A failed call ends the loop with a thrown ContentErrorException carrying the typed error.
   */
  private async *eachPageOf<Q extends PageQuery>(
    list: (query: Q) => Promise<Result<PostsPage>>,
    query: Q = {} as Q,
  ): AsyncGenerator<PostsPage, void, unknown> {
    let page = query.page ?? 1;
    for (;;) {
      const reply = await list({ ...query, page });
      if (!reply.ok) throw new ContentErrorException(reply.error);
      yield reply.data;
      if (page >= reply.data.pagination.totalPages || reply.data.posts.length === 0) return;
      page += 1;
    }
  }

  /** Every post of a list, across its pages. */
  async *allPosts<Q extends PageQuery>(
    list: (query: Q) => Promise<Result<PostsPage>>,
    query: Q = {} as Q,
  ): AsyncGenerator<PostsPage['posts'][number], void, unknown> {
    for await (const page of this.eachPageOf(list, query)) yield* page.posts;
  }

  /** One GET: If-None-Match from the cache, a 304 answered from it, the reply's `data` kept with its ETag
   * (`cached: false`: a member's read, which the cache neither answers nor keeps). */
  private async run<T>(
    key: string,
    call: (headers: Record<string, string> | undefined) => Promise<{ data?: { data: T }; error?: unknown; response: Response }>,
    { cached = true }: { cached?: boolean } = {},
  ): Promise<Result<T>> {
    const cache = cached ? this.cache : undefined;
    const kept = cache?.get(key);
    try {
      const { data, error, response } = await call(kept ? { 'If-None-Match': kept.etag } : undefined);
      if (response.status === 304 && kept) {
        return { ok: true, data: kept.data as T, status: 304, etag: kept.etag, fromCache: true };
      }
      if (!response.ok || !data) return { ok: false, error: toError(response.status, error, response) };
      const etag = response.headers.get('ETag') ?? undefined;
      if (cache && etag) cache.set(key, { etag, data: data.data });
      return { ok: true, data: data.data, status: response.status, etag, fromCache: false };
    } catch (cause) {
      return { ok: false, error: { ...toError(0, undefined), message: String(cause) } };
    }
  }
}

/** The page iterator of a posts list (ContentClient.pages called as a function). */
export type PageIterator = <Q extends PageQuery>(
  list: (query: Q) => Promise<Result<PostsPage>>,
  query?: Q,
) => AsyncGenerator<PostsPage, void, unknown>;

/** The company's pages (ContentClient.pages.list, ContentClient.pages.bySlug). */
export interface PagesApi {
  /** GET pages (ContentClient.listPages). */
  list(query?: PostsQuery): Promise<Result<PagesPage>>;
  /** GET pages/slug/{slug} (ContentClient.getPage; `memberToken` as there). */
  bySlug(slug: string, query?: LocaleQuery, options?: ReadOptions): Promise<Result<Page>>;
}

/** The member token's header, when one is given. */
function memberHeader(options: ReadOptions): Record<string, string> | undefined {
  return options.memberToken ? { 'X-Member-Token': options.memberToken } : undefined;
}

/** The cache key of a GET: its path and its query (sorted). */
function cacheKey(path: string, query: Query = {}): string {
  const search = new URLSearchParams(
    Object.entries(clean(query))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, value]) => [key, String(value)] as [string, string]),
  ).toString();
  return search ? `${path}?${search}` : path;
}

function clean(query: Query): Query {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined && value !== null));
}

/** Thrown only by the page iterators (a for-await loop has no other way to report a failure). */
export class ContentErrorException extends Error {
  constructor(readonly error: ContentError) {
    super(`${error.status} ${error.error}: ${error.message}`);
    this.name = 'ContentErrorException';
  }
}

/** Shorthand for `new ContentClient(options)`. */
export function createContentClient(options: ContentClientOptions): ContentClient {
  return new ContentClient(options);
}
