import { lazy, Suspense, useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Eye, FileText, Folder, Image, Plus, RefreshCw, TrendingDown, TrendingUp, Users } from 'lucide-react';
import { PageHeader } from '@/components/PageHeader';
import { ErrorState, LoadingState, Spinner, StatusBadge } from '@/components/ui';
import { useGetDashboardStatsQuery, useGetPageViewsQuery, useTrackPageViewMutation } from '@/api/stats';
import { formatDate, formatNumber } from '@/lib/format';
import { useAppSelector } from '@/lib/hooks';
import { selectUser } from '@/lib/session';

const PageViewsChart = lazy(() => import('../components/PageViewsChart'));

export const TOP_LIST_SIZE = 5;

function StatCard({ icon, label, value, sub }: { icon: ReactNode; label: string; value: string; sub?: ReactNode }) {
  return (
    <div className="card stat-card">
      <div className="stat-icon" aria-hidden="true">
        {icon}
      </div>
      <div>
        <div className="small muted">{label}</div>
        <div className="stat-value">{value}</div>
        {sub ? <div className="small muted">{sub}</div> : null}
      </div>
    </div>
  );
}

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

  const header = (
    <PageHeader
      title="Dashboard"
      description={`Welcome back${user ? `, ${user.username}` : ''}! Here's an overview of your content.`}
      iconButton={{ icon: <RefreshCw size={16} />, label: 'Refresh', onClick: retry }}
      action={{ label: 'Add Post', to: '/dashboard/posts/new', icon: <Plus size={16} /> }}
    />
  );

  if (stats.isLoading) {
    return (
      <>
        {header}
        <LoadingState label="Loading dashboard..." />
      </>
    );
  }
  if (stats.isError || !stats.data) {
    return (
      <>
        {header}
        <section className="card">
          <ErrorState title="Failed to load dashboard statistics" onRetry={retry} />
        </section>
      </>
    );
  }

  const { overview, analytics, recentActivity } = stats.data;
  const pv = views.isSuccess ? views.data : undefined;
  const growth = analytics?.growthPercentage ?? 0;
  const topPosts = (pv?.topContent?.posts ?? []).slice(0, TOP_LIST_SIZE);
  const maxViews = Math.max(1, ...topPosts.map((p) => p.views));
  const topCategories = (analytics?.topCategories ?? []).slice(0, TOP_LIST_SIZE);

  return (
    <>
      {header}
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
        <section className="card">
          <div className="card-header">
            <h2 className="card-title">Content Growth</h2>
          </div>
          <div className="card-body stack">
            <div className="row-between">
              <span className="muted">Posts this month</span>
              <strong>{formatNumber(analytics?.postsThisMonth)}</strong>
            </div>
            <div className="row-between">
              <span className="muted">Posts last month</span>
              <strong>{formatNumber(analytics?.postsLastMonth)}</strong>
            </div>
            <div className="row-between">
              <span className="muted">Growth</span>
              <strong className={growth >= 0 ? 'row text-success' : 'row text-danger'} data-testid="growth">
                {growth >= 0 ? <TrendingUp size={16} aria-label="Up" /> : <TrendingDown size={16} aria-label="Down" />}
                {growth > 0 ? '+' : ''}
                {growth}%
              </strong>
            </div>
          </div>
        </section>

        <section className="card">
          <div className="card-header">
            <h2 className="card-title">Recent Posts</h2>
            <Link to="/dashboard/posts?status=all" className="small">
              View all
            </Link>
          </div>
          <div className="card-body" style={{ paddingTop: 4, paddingBottom: 4 }}>
            {(recentActivity?.recentPosts ?? []).length === 0 ? (
              <p className="muted">No posts yet.</p>
            ) : (
              recentActivity.recentPosts.slice(0, TOP_LIST_SIZE).map((p) => (
                <div className="list-row" key={p.id}>
                  <Link to={`/dashboard/posts/edit/${p.id}`} className="grow" style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                    {p.title}
                  </Link>
                  <StatusBadge status={p.status} />
                  <span className="small muted">{formatDate(p.publishedAt)}</span>
                </div>
              ))
            )}
          </div>
        </section>
      </div>

      <div className="grid-2">
        <section className="card">
          <div className="card-header">
            <h2 className="card-title">{pv ? 'Top Content' : 'Top Categories'}</h2>
            {pv ? <span className="small muted">Views of posts, last 30 days</span> : null}
          </div>
          <div className="card-body" style={{ paddingTop: 4, paddingBottom: 4 }}>
            {pv ? (
              topPosts.length === 0 ? (
                <p className="muted">
                  {(pv.summary?.totalViews ?? 0) > 0
                    ? 'No post has been viewed yet: the views so far were of other pages.'
                    : 'No page views recorded yet.'}
                </p>
              ) : (
                topPosts.map((p) => (
                  <div className="list-row" key={p.slug} style={{ display: 'block' }}>
                    <div className="row-between">
                      <Link to={`/dashboard/posts/${p.slug}`}>{p.title}</Link>
                      <span className="small muted">{formatNumber(p.views)} views</span>
                    </div>
                    <div className="bar">
                      <span style={{ width: `${Math.round((p.views / maxViews) * 100)}%` }} />
                    </div>
                  </div>
                ))
              )
            ) : topCategories.length === 0 ? (
              <p className="muted">No categories yet.</p>
            ) : (
              topCategories.map((c) => (
                <div className="list-row" key={c.slug}>
                  <span>{c.name}</span>
                  <span className="small muted">
                    {formatNumber(c.postCount)} {c.postCount === 1 ? 'post' : 'posts'}
                  </span>
                </div>
              ))
            )}
          </div>
        </section>

        <section className="card">
          <div className="card-header">
            <h2 className="card-title">Analytics Overview</h2>
            <span className="small muted">Last 30 days</span>
          </div>
          <div className="card-body">
            {views.isLoading ? (
              <Spinner small />
            ) : pv ? (
              <div className="grid-2" style={{ gridTemplateColumns: 'repeat(2, 1fr)' }}>
                <div>
                  <div className="small muted">Total views (all pages)</div>
                  <div className="stat-value">{formatNumber(pv.summary?.totalViews)}</div>
                </div>
                <div>
                  <div className="small muted">Unique visitors</div>
                  <div className="stat-value">{formatNumber(pv.summary?.uniqueVisitors)}</div>
                </div>
                <div>
                  <div className="small muted">Posts viewed</div>
                  <div className="stat-value">{formatNumber(pv.summary?.viewedPosts)}</div>
                </div>
                <div>
                  <div className="small muted">Traffic sources</div>
                  <div className="stat-value">{formatNumber(pv.trafficSources?.referrers?.length ?? 0)}</div>
                </div>
              </div>
            ) : (
              <p className="muted">Analytics are not available right now.</p>
            )}
          </div>
        </section>
      </div>

      {pv ? (
        <section className="card">
          <div className="card-header">
            <h2 className="card-title">Page Views</h2>
            <span className="small muted">All pages per day, last 30 days up to today</span>
          </div>
          <div className="card-body">
            <Suspense fallback={<LoadingState label="Loading chart..." />}>
              <PageViewsChart data={pv.timeline ?? []} />
            </Suspense>
          </div>
        </section>
      ) : null}
    </>
  );
}
