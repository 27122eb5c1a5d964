import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { ClientInfo } from '@/api/company';
import { ADMIN, renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';
import { buildApiGuide } from '../guide';

const INFO: ClientInfo = {
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

function infoApi(info: ClientInfo = INFO) {
  let current = info;
  server.use(
    http.get('*/api/client/info', () => HttpResponse.json({ success: true, data: current })),
    http.post('*/api/client/api-key/rotate', () => {
      current = {
        ...current,
        apiInfo: {
          ...current.apiInfo,
          authentication: { ...current.apiInfo.authentication, apiKey: 'cms_live_NEWKEY999999' },
          ghost: { ...current.apiInfo.ghost, contentApiKey: 'fedcba9876543210fedcba9876' },
        },
      };
      return HttpResponse.json({
        success: true,
        message: 'API key rotated. The previous key no longer works.',
        data: { apiKey: 'cms_live_NEWKEY999999', ghostContentKey: 'fedcba9876543210fedcba9876' },
      });
    }),
  );
}

describe('settings', () => {
  it('company card and API documentation tabs', async () => {
    infoApi();
    const user = userEvent.setup();
    renderApp('/dashboard/settings', { session: signedIn() });
    const company = (await screen.findByText('Company Information')).closest('.card') as HTMLElement;
    for (const text of ['Demo Company', 'Dana Demo', 'dana@demo.test', 'demo', 'active', 'trial', 'Jan 15, 2024']) {
      expect(company).toHaveTextContent(text);
    }
    expect(screen.getByTestId('api-key')).not.toHaveTextContent('cms_live_abcdef1234567890');
    expect(screen.getByTestId('ghost-key')).not.toHaveTextContent('0123456789abcdef0123456789');
    await user.click(screen.getByRole('button', { name: 'Show API key' }));
    expect(screen.getByTestId('api-key')).toHaveTextContent('cms_live_abcdef1234567890');
    expect(screen.getByTestId('ghost-key')).toHaveTextContent('0123456789abcdef0123456789');
    expect(screen.getByText(/url: 'http:\/\/demo.localhost:8000'/)).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Endpoints' }));
    expect(screen.getByText('GET /posts/slug/{slug}')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Examples' }));
    expect(screen.getByText(/posts\/category\/news/)).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Responses' }));
    expect(screen.getByText(/"pagination"/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Contact Support/ })).toHaveAttribute('href', 'mailto:support@localhost');
  });

  it('Copy API Key and Download API Guide', async () => {
    infoApi();
    const created: Blob[] = [];
    const createObjectURL = vi.fn((b: Blob) => {
      created.push(b);
      return 'blob:guide';
    });
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const user = userEvent.setup();
    renderApp('/dashboard/settings', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: /Copy API Key/ }));
    expect(await navigator.clipboard.readText()).toBe('cms_live_abcdef1234567890');
    await user.click(screen.getByRole('button', { name: /Download API Guide/ }));
    expect(created).toHaveLength(1);
    expect(await created[0].text()).toContain('curl -H "x-api-key: cms_live_abcdef1234567890"');
  });

  it('an admin rotates the key after confirming', async () => {
    infoApi();
    const user = userEvent.setup();
    renderApp('/dashboard/settings', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: /Rotate API Key/ }));
    const dialog = screen.getByRole('dialog', { name: 'Rotate API key' });
    await user.click(within(dialog).getByRole('button', { name: 'Rotate Key' }));
    expect(await screen.findByText('API key rotated. The previous key no longer works.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show API key' }));
    expect(await screen.findByText('cms_live_NEWKEY999999')).toBeInTheDocument();
    expect(screen.getByTestId('ghost-key')).toHaveTextContent('fedcba9876543210fedcba9876');
  });

  it('non-admins cannot rotate', async () => {
    infoApi();
    renderApp('/dashboard/settings', { session: signedIn({ userId: 'u9', username: 'ed', role: 'editor' }) });
    expect(await screen.findByText('Company Information')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Rotate API Key/ })).not.toBeInTheDocument();
  });

  it('error state with Try Again and Refresh Page', async () => {
    server.use(http.get('*/api/client/info', () => HttpResponse.json({ success: false, message: 'x', error: 'y' }, { status: 400 })));
    renderApp('/dashboard/settings', { session: signedIn() });
    expect(await screen.findByText('Failed to load client information')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh Page' })).toBeInTheDocument();
  });

  it.each([
    ['trial', 'Operational'],
    ['active', 'Operational'],
    ['suspended', 'Unavailable'],
  ] as const)('a company in status %s: content API %s', async (status, shown) => {
    infoApi({ ...INFO, company: { ...INFO.company, status } });
    renderApp('/dashboard/settings', { session: signedIn() });
    const card = (await screen.findByText('API Status')).closest('.card') as HTMLElement;
    expect(within(card).getByText(shown)).toBeInTheDocument();
  });

  it('the guide text names base URL, key and endpoints', () => {
    const text = buildApiGuide(INFO);
    expect(text).toContain('Base URL: http://demo.localhost:8000/api/v1');
    expect(text).toContain('GET http://demo.localhost:8000/api/v1/posts/tag/{slug}');
    expect(text).toContain('API key: cms_live_abcdef1234567890');
  });
});

describe('deleting the company', () => {
  it('admins confirm with the subdomain and their password; server errors land on the fields', async () => {
    infoApi();
    const sent: unknown[] = [];
    let attempt = 0;
    server.use(
      http.post('*/api/client/delete', async ({ request }) => {
        sent.push(await request.json());
        attempt += 1;
        if (attempt === 1) {
          return HttpResponse.json(
            { success: false, message: 'Password is incorrect', error: 'validation_error', errors: [{ field: 'password', message: 'Password is incorrect' }] },
            { status: 400 },
          );
        }
        return HttpResponse.json({ success: true, message: 'Your company is being deleted.' }, { status: 202 });
      }),
    );
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, port: '8000', protocol: 'http:' });
    const user = userEvent.setup();
    renderApp('/dashboard/settings', { session: signedIn() });
    await user.click(await screen.findByRole('button', { name: 'Delete Company' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete company' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete Forever' }));
    expect(await within(dialog).findByText("Type your company's subdomain exactly to confirm")).toBeInTheDocument();
    expect(sent).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Company subdomain'), 'demo');
    await user.type(within(dialog).getByLabelText('Your password'), 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Delete Forever' }));
    expect(await within(dialog).findByText('Password is incorrect')).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();

    await user.clear(within(dialog).getByLabelText('Your password'));
    await user.type(within(dialog).getByLabelText('Your password'), 'right-password');
    await user.click(within(dialog).getByRole('button', { name: 'Delete Forever' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalled());
    expect(assign.mock.calls[0][0]).toMatch(/\/login\?deleted=Demo%20Company$/);
    expect(sent[1]).toEqual({ confirmSubdomain: 'demo', password: 'right-password' });
    vi.unstubAllGlobals();
  });

  it('is not offered to other roles', async () => {
    infoApi();
    renderApp('/dashboard/settings', { session: signedIn({ ...ADMIN, role: 'editor' }) });
    await screen.findByText('Company Information');
    expect(screen.queryByRole('button', { name: 'Delete Company' })).not.toBeInTheDocument();
  });
});
