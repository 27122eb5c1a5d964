import { useEffect, useRef } from 'react';
import { Eye, FileText, Folder, Image, Plus, RefreshCw, Users } from 'lucide-react';
import { useGetDashboardStatsQuery, useGetPageViewsQuery, useTrackPageViewMutation } from '@/api/stats';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { formatNumber } from '@/lib/format';
import { useAppSelector } from '@/lib/hooks';
import { selectUser } from '@/lib/session';
import { AnalyticsOverview, ContentGrowth, PageViewsCard, RecentPosts, StatCard, TopContent } from '../components/HomePanels';

/** The dashboard's home: content counts, growth, recent posts, and the sites' page views. */
export function DashboardHome() {
  const user = useAppSelector(selectUser);
  const stats = useGetDashboardStatsQuery();
  const views = useGetPageViewsQuery();
  const [track] = useTrackPageViewMutation();
  const tracked = useRef(false);

  // After the dashboard has loaded, record a page view; failures are only logged.
  useEffect(() => {
    if (!stats.isSuccess || tracked.current) return;
    tracked.current = true;
    track({ pageUrl: window.location.href, referrer: document.referrer })
      .unwrap()
      .catch((err: unknown) => console.warn('Page view tracking failed', err));
  }, [stats.isSuccess, track]);

  function retry() {
    void stats.refetch();
    void views.refetch();
  }

  const pv = views.isSuccess ? views.data : undefined;
  return (
    <>
      <PageHeader
        title="Dashboard"
        description={`Welcome back${user ? `, ${user.username}` : ''}! Here's an overview of your content.`}
        iconButton={{ icon: <RefreshCw size={16} />, label: 'Refresh', onClick: retry }}
        action={{ label: 'Add Post', to: '/dashboard/posts/new', icon: <Plus size={16} /> }}
      />
      <QueryState query={stats} boxed loading="Loading dashboard..." error="Failed to load dashboard statistics" retry={retry}>
        {({ overview, analytics, recentActivity }) => (
          <>
            <div className="stats-grid">
              <StatCard
                icon={<FileText size={20} />}
                label="Total Posts"
                value={formatNumber(overview?.totalPosts)}
                sub={`${formatNumber(overview?.publishedPosts)} published, ${formatNumber(overview?.draftPosts)} ${overview?.draftPosts === 1 ? 'draft' : 'drafts'}`}
              />
              <StatCard
                icon={<Folder size={20} />}
                label="Categories"
                value={formatNumber(overview?.totalCategories)}
                sub={`${formatNumber(overview?.totalTags)} ${overview?.totalTags === 1 ? 'tag' : 'tags'}`}
              />
              {pv ? (
                <StatCard icon={<Eye size={20} />} label="Page Views" value={formatNumber(pv.summary?.totalViews)} sub="All pages, last 30 days" />
              ) : (
                <StatCard icon={<Users size={20} />} label="Users" value={formatNumber(overview?.totalUsers)} sub="Team members" />
              )}
              <StatCard icon={<Image size={20} />} label="Media Files" value={formatNumber(overview?.totalMedia)} sub="In the library" />
            </div>
            <div className="grid-2">
              <ContentGrowth analytics={analytics} />
              <RecentPosts posts={recentActivity?.recentPosts ?? []} />
            </div>
            <div className="grid-2">
              <TopContent views={pv} categories={analytics?.topCategories ?? []} />
              <AnalyticsOverview views={pv} loading={views.isLoading} />
            </div>
            {pv ? <PageViewsCard views={pv} /> : null}
          </>
        )}
      </QueryState>
    </>
  );
}
