import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';

type Schemas = components['schemas'];

/** The company's plan, its limits with what it uses, and its usage per day (admins). */
export type Usage = Schemas['UsageOut'];
export type PlanLimit = Schemas['PlanLimitOut'];
export type UsageDay = Schemas['UsageDayOut'];

export const usageApi = api.injectEndpoints({
  endpoints: (build) => ({
    getUsage: build.query<Usage, number>({
      query: (days) => ({ url: 'usage', params: { days } }),
      providesTags: [{ type: 'Client' as const, id: 'USAGE' }],
    }),
  }),
});

export const { useGetUsageQuery } = usageApi;
