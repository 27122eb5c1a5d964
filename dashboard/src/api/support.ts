import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';

type Schemas = components['schemas'];

export type SupportAccess = Schemas['SupportAccessOut'];
export type SupportSignedIn = Schemas['SupportSignedInOut'];

const SUPPORT = [{ type: 'Client' as const, id: 'SUPPORT' }];

/** Support access (apps/accounts/support.py): an admin lets the platform's support sign in as a user
 *  for a few hours; the operator console's one-time link is traded for a support session here. */
export const supportApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSupportAccess: build.query<SupportAccess, void>({
      query: () => 'client/support-access',
      providesTags: SUPPORT,
    }),
    grantSupportAccess: build.mutation<SupportAccess, { hours: number }>({
      query: (body) => ({ url: 'client/support-access', method: 'POST', body }),
      invalidatesTags: SUPPORT,
    }),
    revokeSupportAccess: build.mutation<SupportAccess, void>({
      query: () => ({ url: 'client/support-access', method: 'DELETE' }),
      invalidatesTags: SUPPORT,
    }),
    exchangeSupportLink: build.mutation<SupportSignedIn, { token: string }>({
      query: (body) => ({ url: 'client/support-access/exchange', method: 'POST', body }),
    }),
    endSupportSession: build.mutation<Schemas['MessageOut'], void>({
      query: () => ({ url: 'client/support-access/end', method: 'POST' }),
    }),
  }),
});

export const {
  useGetSupportAccessQuery,
  useGrantSupportAccessMutation,
  useRevokeSupportAccessMutation,
  useExchangeSupportLinkMutation,
  useEndSupportSessionMutation,
} = supportApi;
