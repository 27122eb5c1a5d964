import { lazy, Suspense, type ReactNode } from 'react';
import { Link } from 'react-router';
import { TrendingDown, TrendingUp } from 'lucide-react';
import type { DashboardStats, PageViews } from '@/api/stats';
import { StatusBadge } from '@/components/Badge';
import { Card } from '@/components/Card';
import { LoadingState } from '@/components/LoadingState';
import { Spinner } from '@/components/Spinner';
import { formatDate, formatNumber } from '@/lib/format';

const PageViewsChart = lazy(() => import('./PageViewsChart'));

export const TOP_LIST_SIZE = 5;

export function StatCard({ icon, label, value, sub }: { icon: ReactNode; label: string; value: string; sub?: ReactNode }) {
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

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="row-between">
      <span className="muted">{label}</span>
      {children}
    </div>
  );
}

export function ContentGrowth({ analytics }: { analytics: DashboardStats['analytics'] }) {
  const growth = analytics?.growthPercentage ?? 0;
  return (
    <Card title="Content Growth">
      <Figure label="Posts this month">
        <strong>{formatNumber(analytics?.postsThisMonth)}</strong>
      </Figure>
      <Figure label="Posts last month">
        <strong>{formatNumber(analytics?.postsLastMonth)}</strong>
      </Figure>
      <Figure label="Growth">
        <strong className={growth >= 0 ? 'row text-success' : 'row text-danger'} data-testid="growth">
          {growth >= 0 ? <TrendingUp size={16} aria-label="Up" /> : <TrendingDown size={16} aria-label="Down" />}
          {growth > 0 ? '+' : ''}
          {growth}%
        </strong>
      </Figure>
    </Card>
  );
}

export function RecentPosts({ posts }: { posts: DashboardStats['recentActivity']['recentPosts'] }) {
  return (
    <Card
      title="Recent Posts"
      body="rows"
      aside={
        <Link to="/dashboard/posts?status=all" className="small">
          View all
        </Link>
      }
    >
      {posts.length === 0 ? (
        <p className="muted">No posts yet.</p>
      ) : (
        posts.slice(0, TOP_LIST_SIZE).map((p) => (
          <div className="list-row" key={p.id}>
            <Link to={`/dashboard/posts/edit/${p.id}`} className="grow" style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
              {p.title}
            </Link>
            <StatusBadge status={p.status} />
            <span className="small muted">{formatDate(p.publishedAt)}</span>
          </div>
        ))
      )}
    </Card>
  );
}

/** The most viewed posts when page views are known, else the categories with most posts. */
export function TopContent({ views, categories }: { views?: PageViews; categories: DashboardStats['analytics']['topCategories'] }) {
  if (!views) {
    const top = (categories ?? []).slice(0, TOP_LIST_SIZE);
    return (
      <Card title="Top Categories" body="rows">
        {top.length === 0 ? (
          <p className="muted">No categories yet.</p>
        ) : (
          top.map((c) => (
            <div className="list-row" key={c.slug}>
              <span>{c.name}</span>
              <span className="small muted">
                {formatNumber(c.postCount)} {c.postCount === 1 ? 'post' : 'posts'}
              </span>
            </div>
          ))
        )}
      </Card>
    );
  }
  const posts = (views.topContent?.posts ?? []).slice(0, TOP_LIST_SIZE);
  const maxViews = Math.max(1, ...posts.map((p) => p.views));
  return (
    <Card title="Top Content" body="rows" aside={<span className="small muted">Views of posts, last 30 days</span>}>
      {posts.length === 0 ? (
        <p className="muted">
          {(views.summary?.totalViews ?? 0) > 0 ? 'No post has been viewed yet: the views so far were of other pages.' : 'No page views recorded yet.'}
        </p>
      ) : (
        posts.map((p) => (
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
      )}
    </Card>
  );
}

function Total({ label, value }: { label: string; value: number | undefined }) {
  return (
    <div>
      <div className="small muted">{label}</div>
      <div className="stat-value">{formatNumber(value)}</div>
    </div>
  );
}

export function AnalyticsOverview({ views, loading }: { views?: PageViews; loading: boolean }) {
  return (
    <Card title="Analytics Overview" body="plain" aside={<span className="small muted">Last 30 days</span>}>
      {loading ? (
        <Spinner small />
      ) : views ? (
        <div className="grid-2" style={{ gridTemplateColumns: 'repeat(2, 1fr)' }}>
          <Total label="Total views (all pages)" value={views.summary?.totalViews} />
          <Total label="Unique visitors" value={views.summary?.uniqueVisitors} />
          <Total label="Posts viewed" value={views.summary?.viewedPosts} />
          <Total label="Traffic sources" value={views.trafficSources?.referrers?.length ?? 0} />
        </div>
      ) : (
        <p className="muted">Analytics are not available right now.</p>
      )}
    </Card>
  );
}

export function PageViewsCard({ views }: { views: PageViews }) {
  return (
    <Card title="Page Views" body="plain" aside={<span className="small muted">All pages per day, last 30 days up to today</span>}>
      <Suspense fallback={<LoadingState label="Loading chart..." />}>
        <PageViewsChart data={views.timeline ?? []} />
      </Suspense>
    </Card>
  );
}
