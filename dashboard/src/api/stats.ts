import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';

type Schemas = components['schemas'];

/** The dashboard home's figures: content counts, and page views of the company's sites. */
export type DashboardStats = Schemas['DashboardStatsDataOut'];
export type PageViews = Schemas['PageViewsDataOut'];

export const ANALYTICS_DAYS = 30;

export const statsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getDashboardStats: build.query<DashboardStats, void>({
      query: () => 'dashboard/stats',
      transformResponse: (r: Schemas['DashboardStatsOut']) => r.data,
      providesTags: ['Dashboard'],
    }),
    getPageViews: build.query<PageViews, { days?: number; groupBy?: string } | void>({
      query: (args) => ({
        url: 'analytics/page-views',
        params: { days: args?.days ?? ANALYTICS_DAYS, groupBy: args?.groupBy ?? 'day' },
      }),
      transformResponse: (r: Schemas['PageViewsOut']) => r.data,
      providesTags: ['Analytics'],
    }),
    trackPageView: build.mutation<Schemas['TrackOut'], { pageUrl: string; referrer: string }>({
      query: (body) => ({ url: 'analytics/track', method: 'POST', body }),
    }),
  }),
});

export const { useGetDashboardStatsQuery, useGetPageViewsQuery, useTrackPageViewMutation } = statsApi;
