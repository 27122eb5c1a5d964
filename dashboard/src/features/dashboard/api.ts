import { api } from '@/lib/api';

export interface DashboardStats {
  overview: {
    totalPosts: number;
    publishedPosts: number;
    draftPosts: number;
    totalCategories: number;
    totalTags: number;
    totalUsers: number;
    totalMedia: number;
  };
  analytics: {
    postsThisMonth: number;
    postsLastMonth: number;
    growthPercentage: number;
    topCategories: { name: string; slug: string; postCount: number }[];
  };
  recentActivity: {
    recentPosts: { id: string; title: string; status: string; publishedAt?: string | null; slug?: string }[];
  };
}

export interface PageViews {
  summary: { totalViews: number; uniqueVisitors: number; viewedPosts: number };
  timeline: { date: string; views: number; uniqueVisitors?: number }[];
  topContent: { posts: { title: string; slug: string; views: number }[] };
  trafficSources: { referrers: { source: string; views: number }[] };
}

export const ANALYTICS_DAYS = 30;

export const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    getDashboardStats: build.query<DashboardStats, void>({
      query: () => 'dashboard/stats',
      transformResponse: (r: { data: DashboardStats }) => r.data,
      providesTags: ['Dashboard'],
    }),
    getPageViews: build.query<PageViews, { days?: number; groupBy?: string } | void>({
      query: (args) => ({
        url: 'analytics/page-views',
        params: { days: args?.days ?? ANALYTICS_DAYS, groupBy: args?.groupBy ?? 'day' },
      }),
      transformResponse: (r: { data: PageViews }) => r.data,
      providesTags: ['Analytics'],
    }),
    trackPageView: build.mutation<{ success: boolean }, { pageUrl: string; referrer: string }>({
      query: (body) => ({ url: 'analytics/track', method: 'POST', body }),
    }),
  }),
});

export const { useGetDashboardStatsQuery, useGetPageViewsQuery, useTrackPageViewMutation } = dashboardApi;
