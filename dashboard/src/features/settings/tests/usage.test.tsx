import { render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '@/app/providers';
import { makeStore } from '@/app/store';
import { signedIn, TENANT } from '@/test/render';
import { server } from '@/test/server';
import { UsageCard } from '../components/UsageCard';

function day(n: number, apiRequests: number) {
  return {
    day: `2026-11-${String(n).padStart(2, '0')}`, apiRequests, aiJobs: 1, emails: 2, webhookDeliveries: 0,
    posts: 3, staffSeats: 2, mediaBytes: 2048, webhookEndpoints: 1,
  };
}

describe('Usage (settings)', () => {
  it('shows the plan, each limit with its use, and the requests per day', async () => {
    const asked: string[] = [];
    server.use(
      http.get('*/api/usage', ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('days') ?? '');
        return HttpResponse.json({
          success: true, plan: 'trial', subscriptionStatus: 'trialing', trialEndsAt: '2026-12-01T00:00:00Z',
          readOnly: false, publicApiRequestsPerMinute: 600, aiJobsPerDay: 20,
          limits: [
            { limit: 'staff_seats', used: 3, allowed: 3 },
            { limit: 'posts', used: 40, allowed: 100 },
            { limit: 'media_bytes', used: 1048576, allowed: 1073741824 },
            { limit: 'webhook_endpoints', used: 0, allowed: null },
          ],
          days: [day(24, 10), day(25, 30)],
        });
      }),
    );
    render(
      <AppProviders store={makeStore(signedIn())} config={TENANT}>
        <UsageCard />
      </AppProviders>,
    );
    expect(await screen.findByText('trial')).toBeInTheDocument();
    expect(screen.getByText(/3 of 3/)).toBeInTheDocument();
    expect(screen.getByText('Limit reached')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Posts used' })).toHaveAttribute('aria-valuenow', '40');
    expect(screen.getByText(/of unlimited/)).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /Public API requests per day, last 2 days: 40 in all/ })).toBeInTheDocument();
    expect(asked).toEqual(['30']);
  });

  it('is not shown to other roles', () => {
    render(
      <AppProviders store={makeStore(signedIn({ userId: 'u-2', username: 'ed', role: 'editor' }))} config={TENANT}>
        <UsageCard />
      </AppProviders>,
    );
    expect(screen.queryByText('Usage')).not.toBeInTheDocument();
  });
});
