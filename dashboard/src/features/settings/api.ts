import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';

export type TwoFactorPolicy = components['schemas']['TwoFactorPolicyOut'];

export interface ClientInfo {
  company: {
    uuid?: string;
    name: string;
    contactName: string;
    contactEmail: string;
    subdomain: string;
    status: string;
    subscriptionPlan: string;
    subscriptionStatus?: string;
    trialEndsAt?: string | null;
    createdAt: string;
    /** IANA zone; the company's days in analytics (default UTC). */
    timeZone?: string;
  };
  apiInfo: {
    baseUrl: string;
    authentication: { method: string; header?: string; apiKey: string; note?: string; previewKey?: string };
    endpoints: { posts: { list: string; getBySlug: string; getByCategory: string; getByTag: string } } & Record<string, unknown>;
    exampleRequests: Record<'getAllPosts' | 'getPostsByCategory' | 'getPostsByTag' | 'getPostBySlug', { url: string }>;
    rateLimit?: { requests: number; windowSeconds: number };
  };
}

export const settingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Admins: whether the company requires two-factor sign-in, and who is still without it. */
    getTwoFactorPolicy: build.query<TwoFactorPolicy, void>({
      query: () => 'client/two-factor-policy',
      providesTags: [{ type: 'Client', id: 'TWO_FACTOR' }],
    }),
    updateTwoFactorPolicy: build.mutation<TwoFactorPolicy, { required: boolean }>({
      query: (body) => ({ url: 'client/two-factor-policy', method: 'PUT', body }),
      invalidatesTags: [{ type: 'Client', id: 'TWO_FACTOR' }, { type: 'User', id: 'ME' }],
    }),
    getClientInfo: build.query<ClientInfo | null, void>({
      query: () => 'client/info',
      transformResponse: (r: { data?: ClientInfo }) => r.data ?? null,
      providesTags: ['Client'],
    }),
    updateClientInfo: build.mutation<
      { message?: string; data: ClientInfo },
      { name: string; contactName: string; contactEmail: string; timeZone?: string }
    >({
      query: (body) => ({ url: 'client/info', method: 'PUT', body }),
      invalidatesTags: ['Client', 'Analytics'],
    }),
    rotateApiKey: build.mutation<{ message?: string; data: { apiKey: string } }, void>({
      query: () => ({ url: 'client/api-key/rotate', method: 'POST' }),
      invalidatesTags: ['Client'],
    }),
    deleteCompany: build.mutation<{ message: string }, { confirmSubdomain: string; password: string }>({
      query: (body) => ({ url: 'client/delete', method: 'POST', body }),
    }),
  }),
});

export const { useGetClientInfoQuery, useRotateApiKeyMutation, useUpdateClientInfoMutation, useDeleteCompanyMutation } =
  settingsApi;
export const { useGetTwoFactorPolicyQuery, useUpdateTwoFactorPolicyMutation } = settingsApi;
