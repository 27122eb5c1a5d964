import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';

type Schemas = components['schemas'];

/** What waits to leave for the company, per kind of work, and its emails that failed or are stuck. */
export type Outgoing = Schemas['OutgoingOut'];
export type OutgoingKind = Schemas['OutgoingKindOut'];
export type OutgoingEmail = Schemas['OutgoingEmailOut'];

const OUTGOING = { type: 'Client' as const, id: 'OUTGOING' };

/** Outgoing messages (admins): the outbox's counts for the company and sending an email again. */
export const outgoingApi = api.injectEndpoints({
  endpoints: (build) => ({
    getOutgoing: build.query<Outgoing, void>({
      query: () => 'outgoing',
      providesTags: [OUTGOING],
    }),
    retryOutgoingEmail: build.mutation<Schemas['MessageOut'], string>({
      query: (id) => ({ url: `outgoing/emails/${id}/retry`, method: 'POST' }),
      invalidatesTags: [OUTGOING],
    }),
  }),
});

export const { useGetOutgoingQuery, useRetryOutgoingEmailMutation } = outgoingApi;
