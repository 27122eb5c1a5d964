import { http, HttpResponse } from 'msw';
import type { ClientInfo } from '@/api/company';

export const CATEGORIES = [
  { id: 'c1', name: 'News', slug: 'news', description: 'Company news', postCount: 3 },
  { id: 'c2', name: 'Guides', slug: 'guides', description: '', postCount: 8 },
];

export const TAGS = [
  { id: 't1', name: 'react', slug: 'react', postCount: 2 },
  { id: 't2', name: 'django', slug: 'django', postCount: 5 },
];

export const MEDIA = [
  {
    id: 'm1',
    fileName: 'hero.png',
    fileType: 'image/png',
    fileSize: 1234,
    altText: 'hero.png',
    link: 'http://demo.localhost/media/hero.png',
    cdnUrl: 'http://demo.localhost/media/hero.png',
    renditions: { thumbnail: 'http://demo.localhost/media/hero-thumb.png' },
    uploadedBy: { username: 'alice' },
  },
];

export function makePost(i: number, extra: Record<string, unknown> = {}) {
  return {
    id: `p${i}`,
    title: `Post number ${i}`,
    slug: `post-number-${i}`,
    excerpt: `Excerpt ${i}`,
    status: 'published',
    createdAt: '2024-05-01T10:00:00Z',
    publishedAt: '2024-05-02T10:00:00Z',
    author: { id: 'u-1', username: 'alice' },
    categories: [{ id: 'c1', name: 'News', slug: 'news' }],
    tags: [{ id: 't1', name: 'react', slug: 'react' }],
    featuredImage: { id: 'm1', spacesKey: 'k', altText: 'hero', link: 'http://demo.localhost/media/hero.png' },
    videoId: null,
    ...extra,
  };
}

/** GET /api/posts as the server sends it (docs/api/index.md). */
export function postListReply(posts: unknown[], page = 1, limit = 10, totalPosts = posts.length) {
  const totalPages = Math.max(1, Math.ceil(totalPosts / limit));
  return { success: true, posts, page, limit, totalPosts, pagination: { total: totalPosts, totalPages, currentPage: page, limit } };
}

export const STATS = {
  overview: {
    totalPosts: 12,
    publishedPosts: 9,
    draftPosts: 3,
    totalCategories: 4,
    totalTags: 7,
    totalUsers: 5,
    totalMedia: 21,
  },
  analytics: {
    postsThisMonth: 4,
    postsLastMonth: 2,
    growthPercentage: 100,
    topCategories: [{ name: 'Guides', slug: 'guides', postCount: 8 }],
  },
  recentActivity: { recentPosts: [{ id: 'p1', title: 'Post number 1', status: 'published', publishedAt: '2024-05-02T10:00:00Z' }] },
};

/** Handlers every signed-in screen needs in tests (taxonomy, media, dashboard). */
export const baseHandlers = [
  http.get('*/api/categories', () => HttpResponse.json({ success: true, categories: CATEGORIES })),
  http.get('*/api/tags', () =>
    HttpResponse.json({ success: true, tags: TAGS, pagination: { total: 2, totalPages: 1, currentPage: 1, limit: 1000 }, total: 2 }),
  ),
  http.get('*/api/media', () =>
    HttpResponse.json({ success: true, media: MEDIA, page: 1, limit: 12, totalItems: 1, totalPages: 1 }),
  ),
  http.get('*/api/dashboard/stats', () => HttpResponse.json({ success: true, data: STATS })),
  http.get('*/api/analytics/page-views', () =>
    HttpResponse.json({ success: false, message: 'Failed to retrieve page views analytics', error: 'server_error' }, { status: 503 }),
  ),
  http.post('*/api/analytics/track', () => HttpResponse.json({ success: true })),
];

/** GET client/languages of a company writing in English (its default), French and German. */
export const LANGUAGES_EN_FR_DE = {
  success: true as const,
  languages: [
    { code: 'en', name: 'English', searchConfig: 'english', chain: ['en'] },
    { code: 'fr', name: 'français', searchConfig: 'french', chain: ['fr', 'en'] },
    { code: 'de', name: 'Deutsch', searchConfig: 'german', chain: ['de', 'en'] },
  ],
  defaultLanguage: 'en',
  fallbacks: {},
};

/** GET client/info of the demo company (an admin's view: the API key is shown). */
export const CLIENT_INFO: ClientInfo = {
  company: {
    uuid: '6f1c2a9e-0000-4000-8000-000000000001',
    name: 'Demo Company',
    contactName: 'Dana Demo',
    contactEmail: 'dana@demo.test',
    subdomain: 'demo',
    status: 'active',
    subscriptionPlan: 'trial',
    subscriptionStatus: 'trialing',
    trialEndsAt: '2024-02-15T00:00:00Z',
    createdAt: '2024-01-15T00:00:00Z',
    websiteUrl: '',
    postUrlTemplate: '',
    feedsEnabled: true,
    features: { aiWriting: true, webhooks: true },
    timeZone: 'UTC',
  },
  apiInfo: {
    baseUrl: 'http://demo.localhost:8000/api/v1',
    authentication: { method: 'API Key', header: 'x-api-key', apiKey: 'cms_live_abcdef1234567890', note: 'Keep it secret' },
    endpoints: {
      posts: { list: '/posts', getBySlug: '/posts/slug/{slug}', getByCategory: '/posts/category/{slug}', getByTag: '/posts/tag/{slug}' },
      categories: '/categories',
      tags: '/tags',
      trackPageView: '/analytics/track',
    },
    exampleRequests: {
      getAllPosts: { url: 'http://demo.localhost:8000/api/v1/posts?page=1&limit=10' },
      getPostsByCategory: { url: 'http://demo.localhost:8000/api/v1/posts/category/news' },
      getPostsByTag: { url: 'http://demo.localhost:8000/api/v1/posts/tag/react' },
      getPostBySlug: { url: 'http://demo.localhost:8000/api/v1/posts/slug/hello' },
    },
    rateLimit: { requests: 1000, windowSeconds: 3600 },
    feeds: { rss: '', atom: '', sitemap: '' },
    ghost: {
      url: 'http://demo.localhost:8000',
      contentApiKey: '0123456789abcdef0123456789',
      version: 'v5.0',
      baseUrl: 'http://demo.localhost:8000/ghost/api/content/',
    },
  },
};

/** Handlers the Settings screen needs besides its cards under test (an admin's view). */
export const settingsHandlers = [
  http.get('*/api/client/info', () => HttpResponse.json({ success: true, data: CLIENT_INFO })),
  http.get('*/api/client/support-access', () => HttpResponse.json({ success: true, message: '', grant: null, sessions: [], maxHours: 24 })),
  http.get('*/api/outgoing', () => HttpResponse.json({ success: true, kinds: [], emails: [] })),
  http.get('*/api/usage', () =>
    HttpResponse.json({
      success: true, plan: 'trial', trialEndsAt: null, readOnly: false, publicApiRequestsPerMinute: 60, aiJobsPerDay: 20,
      limits: [], days: [],
    }),
  ),
];
