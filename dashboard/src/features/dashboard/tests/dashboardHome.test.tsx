import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { baseHandlers, STATS } from '@/test/fixtures';
import { renderApp, signedIn } from '@/test/render';
import { server } from '@/test/server';

vi.mock('../components/PageViewsChart', () => ({
  default: ({ data }: { data: unknown[] }) => <div data-testid="chart">{data.length} points</div>,
}));

const PAGE_VIEWS = {
  summary: { totalViews: 1234, uniqueVisitors: 456, viewedPosts: 7 },
  timeline: [
    { date: '2024-05-01', views: 10, uniqueVisitors: 5 },
    { date: '2024-05-02', views: 20, uniqueVisitors: 8 },
  ],
  topContent: {
    posts: [
      { title: 'Most read', slug: 'most-read', views: 100 },
      { title: 'Half as read', slug: 'half', views: 50 },
    ],
  },
  trafficSources: { referrers: [{ source: 'google', views: 3 }, { source: 'direct', views: 2 }, { source: 'x', views: 1 }] },
};

/** The card of the page (not the sidebar) whose label or title is `label`. */
function card(label: string, selector = '.small, .card-title') {
  const main = screen.getByRole('main');
  return within(main).getByText(label, { selector }).closest('.card') as HTMLElement;
}

describe('dashboard home', () => {
  it('shows the cards, growth, recent posts, top content and the chart; tracks a page view', async () => {
    const tracked: unknown[] = [];
    server.use(
      http.get('*/api/analytics/page-views', ({ request }) => {
        const q = new URL(request.url).searchParams;
        expect(q.get('days')).toBe('30');
        expect(q.get('groupBy')).toBe('day');
        return HttpResponse.json({ success: true, data: PAGE_VIEWS });
      }),
      http.post('*/api/analytics/track', async ({ request }) => {
        tracked.push(await request.json());
        return HttpResponse.json({ success: true });
      }),
      // Later handlers only answer what the ones above do not.
      ...baseHandlers,
    );
    renderApp('/dashboard', { session: signedIn() });
    expect(await screen.findByText('Total Posts')).toBeInTheDocument();
    expect(card('Total Posts')).toHaveTextContent('12');
    expect(card('Total Posts')).toHaveTextContent('9 published, 3 drafts');
    expect(card('Categories')).toHaveTextContent('4');
    expect(card('Categories')).toHaveTextContent('7 tags');
    expect(await within(screen.getByRole('main')).findByText('Page Views', { selector: '.small' })).toBeInTheDocument();
    expect(card('Page Views', '.small')).toHaveTextContent('1,234');
    expect(card('Media Files')).toHaveTextContent('21');
    expect(screen.getByTestId('growth')).toHaveTextContent('+100%');
    expect(screen.getByLabelText('Up')).toBeInTheDocument();
    const recent = card('Recent Posts');
    expect(within(recent).getByRole('link', { name: 'Post number 1' })).toBeInTheDocument();
    expect(within(recent).getByText('Published')).toBeInTheDocument();
    const top = card('Top Content');
    expect(within(top).getByText('Most read')).toBeInTheDocument();
    const bars = top.querySelectorAll('.bar > span');
    expect((bars[0] as HTMLElement).style.width).toBe('100%');
    expect((bars[1] as HTMLElement).style.width).toBe('50%');
    const overview = card('Analytics Overview');
    expect(overview).toHaveTextContent('1,234');
    expect(overview).toHaveTextContent('456');
    expect(overview).toHaveTextContent('Traffic sources3');
    expect(await screen.findByTestId('chart')).toHaveTextContent('2 points');
    await waitFor(() => expect(tracked).toHaveLength(1));
    expect(tracked[0]).toEqual({ pageUrl: window.location.href, referrer: document.referrer });
  });

  it('without analytics: Users card and Top Categories; a failed tracking call is only logged', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    server.use(
      http.post('*/api/analytics/track', () => HttpResponse.json({ success: false, message: 'x', error: 'y' }, { status: 400 })),
      http.get('*/api/dashboard/stats', () =>
        HttpResponse.json({ success: true, data: { ...STATS, analytics: { ...STATS.analytics, growthPercentage: -50 } } }),
      ),
      ...baseHandlers,
    );
    renderApp('/dashboard', { session: signedIn() });
    expect(await screen.findByText('Team members')).toBeInTheDocument();
    expect(card('Users')).toHaveTextContent('5');
    expect(within(screen.getByRole('main')).queryByText('Page Views', { selector: '.small' })).not.toBeInTheDocument();
    expect(screen.getByText('Top Categories')).toBeInTheDocument();
    expect(card('Top Categories')).toHaveTextContent('Guides');
    expect(card('Top Categories')).toHaveTextContent('8 posts');
    expect(screen.getByTestId('growth')).toHaveTextContent('-50%');
    expect(screen.getByLabelText('Down')).toBeInTheDocument();
    await waitFor(() => expect(warn).toHaveBeenCalled());
    expect(screen.queryByText(/tracking/i)).not.toBeInTheDocument();
    warn.mockRestore();
  });

  it('a load failure offers Try Again; Add Post opens the form', async () => {
    let fail = true;
    server.use(
      http.get('*/api/dashboard/stats', () =>
        fail
          ? HttpResponse.json({ success: false, message: 'no', error: 'bad' }, { status: 400 })
          : HttpResponse.json({ success: true, data: STATS }),
      ),
      ...baseHandlers,
    );
    const user = userEvent.setup();
    renderApp('/dashboard', { session: signedIn() });
    expect(await screen.findByText('Failed to load dashboard statistics')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('Total Posts')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /Add Post/ })[0]).toHaveAttribute('href', '/dashboard/posts/new');
  });
});
