import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { capabilitiesOf, roleOfToken } from './roles';

/** GET /api/auth/me for the signed-in test user (its role is in the token: see signedIn()). */
export const meHandler = http.get('*/api/auth/me', ({ request }) => {
  const role = roleOfToken(request.headers.get('Authorization'));
  return HttpResponse.json({
    success: true,
    user: { id: 'u-1', userId: 'u-1', username: 'alice', role },
    capabilities: capabilitiesOf(role),
  });
});

export const EMPTY_SITE = {
  title: '', description: '', metaTitle: '', metaDescription: '', logo: null, icon: null, coverImage: null, accentColor: '',
  navigation: [], secondaryNavigation: [],
  social: { facebook: '', twitter: '', instagram: '', linkedin: '', youtube: '', tiktok: '', threads: '', bluesky: '', mastodon: '' },
  websiteUrl: '', postUrlTemplate: '', language: 'en', timeZone: 'UTC', updatedAt: null,
};

/** The newsletter every company gets once one is needed (docs/newsletters.md). */
export const FIRST_NEWSLETTER = {
  id: 'nl-1', name: 'Newsletter', slug: 'newsletter', description: '', senderName: '', replyTo: '', headerImage: '', footer: '',
  defaultOnSignup: true, status: 'active', sortOrder: 0, members: 0, createdAt: '2026-11-01T10:00:00Z', updatedAt: '2026-11-01T10:00:00Z',
};

/** MSW server shared by every test; each test adds the handlers it needs with server.use(). The
 *  defaults: the signed-in user's capabilities, no webhook endpoints (the dashboard home asks, for
 *  an admin's banner), the company's email is verified and its trial is running (no banners), it writes
 *  in English only, has its first newsletter and no sends, and has not filled in its site settings or author
 *  profiles, unless a test says otherwise. */
export const server = setupServer(
  meHandler,
  http.get('*/api/webhooks', () => HttpResponse.json({ success: true, endpoints: [], events: [] })),
  http.get('*/api/client/verification', () =>
    HttpResponse.json({ success: true, verified: true, email: 'admin@x.test', sentAt: null }),
  ),
  http.get('*/api/client/info', () =>
    HttpResponse.json({ success: true, message: 'ok', data: { company: { subscriptionStatus: 'trialing' } } }),
  ),
  http.get('*/api/client/two-factor-policy', () =>
    HttpResponse.json({ success: true, required: false, usersWithoutTwoFactor: 0 }),
  ),
  // A company that never chose its languages writes in English only.
  http.get('*/api/client/languages', () =>
    HttpResponse.json({
      success: true,
      languages: [{ code: 'en', name: 'English', searchConfig: 'english', chain: ['en'] }],
      defaultLanguage: 'en',
      fallbacks: {},
    }),
  ),
  // Author profiles nobody has filled in yet.
  http.get('*/api/users/:id/profile', () =>
    HttpResponse.json({
      success: true,
      profile: { name: 'alice', displayName: '', bio: '', profileImage: '', coverImage: '', website: '', location: '', facebook: '', twitter: '' },
    }),
  ),
  // Site settings nobody has filled in yet.
  http.get('*/api/client/site', () => HttpResponse.json({ success: true, site: EMPTY_SITE })),
  // The company's first newsletter; no post sent by email yet.
  http.get('*/api/newsletters', () => HttpResponse.json({ success: true, newsletters: [FIRST_NEWSLETTER] })),
  // Opens and clicks are not counted until an admin turns them on.
  http.get('*/api/newsletters/settings', () =>
    HttpResponse.json({ success: true, message: 'Newsletter settings', settings: { trackOpens: false, trackClicks: false } }),
  ),
  http.get('*/api/posts/:id/sends', () => HttpResponse.json({ success: true, sends: [] })),
  http.get('*/api/auth/2fa', () =>
    HttpResponse.json({ success: true, enabled: false, enabledAt: null, recoveryCodesLeft: 0, required: false }),
  ),
);
