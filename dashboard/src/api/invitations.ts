import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';
import type { Role } from '@/lib/session';

type Schemas = components['schemas'];
export type Invitation = Schemas['InvitationOut'];
export type InvitationCheck = Schemas['InvitationCheckOut'];

const LIST = [{ type: 'Invitation' as const, id: 'LIST' }];

/** Invitations by email: admins send, resend and revoke them; the invitee checks the link and
 * accepts it (choosing a username and password, and is signed in). */
export const invitationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getInvitations: build.query<Invitation[], void>({
      query: () => 'invitations',
      transformResponse: (r: Partial<Schemas['InvitationListOut']>) => r.invitations ?? [],
      providesTags: LIST,
    }),
    createInvitation: build.mutation<Schemas['InvitationReplyOut'], { email: string; role: Role }>({
      query: (body) => ({ url: 'invitations', method: 'POST', body }),
      invalidatesTags: LIST,
    }),
    resendInvitation: build.mutation<Schemas['InvitationReplyOut'], string>({
      query: (id) => ({ url: `invitations/${id}/resend`, method: 'POST' }),
      invalidatesTags: LIST,
    }),
    revokeInvitation: build.mutation<Schemas['MessageOut'], string>({
      query: (id) => ({ url: `invitations/${id}`, method: 'DELETE' }),
      invalidatesTags: LIST,
    }),
    checkInvitation: build.mutation<InvitationCheck, { token: string }>({
      query: (body) => ({ url: 'auth/invitation/check', method: 'POST', body }),
    }),
    acceptInvitation: build.mutation<Schemas['LoginOut'], { token: string; username: string; password: string }>({
      query: (body) => ({ url: 'auth/accept-invitation', method: 'POST', body }),
    }),
  }),
});

export const {
  useGetInvitationsQuery,
  useCreateInvitationMutation,
  useResendInvitationMutation,
  useRevokeInvitationMutation,
  useCheckInvitationMutation,
  useAcceptInvitationMutation,
} = invitationsApi;
