import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';
import type { Role } from '@/lib/session';
import type { User } from '@/lib/types';

export type TwoFactorStatus = components['schemas']['TwoFactorStatusOut'];
export type TwoFactorSetup = components['schemas']['TwoFactorSetupOut'];
export type RecoveryCodesReply = components['schemas']['RecoveryCodesOut'];
const TWO_FACTOR = { type: 'User' as const, id: 'TWO_FACTOR' };
const ME = { type: 'User' as const, id: 'ME' };

export interface UserCreateBody {
  username: string;
  email: string;
  password: string;
  role: Role;
}

export type UserUpdateBody = Partial<{
  username: string;
  email: string;
  password: string;
  /** Needed to change one's own password or email. */
  currentPassword: string;
  role: Role;
  status: User['status'];
}>;

export interface Invitation {
  id: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  sentAt: string;
  expiresAt: string;
  expired: boolean;
}

export const usersApi = api.injectEndpoints({
  endpoints: (build) => ({
    getInvitations: build.query<Invitation[], void>({
      query: () => 'invitations',
      transformResponse: (r: { invitations?: Invitation[] }) => r.invitations ?? [],
      providesTags: [{ type: 'Invitation', id: 'LIST' }],
    }),
    createInvitation: build.mutation<{ message: string; invitation: Invitation }, { email: string; role: Role }>({
      query: (body) => ({ url: 'invitations', method: 'POST', body }),
      invalidatesTags: [{ type: 'Invitation', id: 'LIST' }],
    }),
    resendInvitation: build.mutation<{ message: string; invitation: Invitation }, string>({
      query: (id) => ({ url: `invitations/${id}/resend`, method: 'POST' }),
      invalidatesTags: [{ type: 'Invitation', id: 'LIST' }],
    }),
    revokeInvitation: build.mutation<{ message: string }, string>({
      query: (id) => ({ url: `invitations/${id}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'Invitation', id: 'LIST' }],
    }),
    getUsers: build.query<User[], void>({
      query: () => 'users',
      transformResponse: (r: { users?: User[] }) => (Array.isArray(r.users) ? r.users : []),
      providesTags: (result) => [{ type: 'User' as const, id: 'LIST' }, ...(result ?? []).map((u) => ({ type: 'User' as const, id: u.id }))],
    }),
    getUser: build.query<User, string>({
      query: (id) => `users/${id}`,
      transformResponse: (r: { user: User }) => r.user,
      providesTags: (_r, _e, id) => [{ type: 'User', id }],
    }),
    createUser: build.mutation<{ message?: string; user: User }, UserCreateBody>({
      query: (body) => ({ url: 'auth/register-user', method: 'POST', body }),
      invalidatesTags: [{ type: 'User', id: 'LIST' }, 'Dashboard'],
    }),
    updateUser: build.mutation<
      { success?: boolean; message?: string; user: User; token?: string; expiresIn?: number },
      { id: string; body: UserUpdateBody }
    >({
      query: ({ id, body }) => ({ url: `users/${id}`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'User', id }, { type: 'User', id: 'LIST' }],
    }),
    // Two-factor sign-in of the signed-in user (the account page)
    getTwoFactor: build.query<TwoFactorStatus, void>({
      query: () => 'auth/2fa',
      providesTags: [TWO_FACTOR],
    }),
    setupTwoFactor: build.mutation<TwoFactorSetup, void>({
      query: () => ({ url: 'auth/2fa/setup', method: 'POST' }),
    }),
    confirmTwoFactor: build.mutation<RecoveryCodesReply, { code: string }>({
      query: (body) => ({ url: 'auth/2fa/confirm', method: 'POST', body }),
      invalidatesTags: [TWO_FACTOR, ME],
    }),
    regenerateRecoveryCodes: build.mutation<RecoveryCodesReply, { code: string }>({
      query: (body) => ({ url: 'auth/2fa/recovery-codes', method: 'POST', body }),
      invalidatesTags: [TWO_FACTOR],
    }),
    disableTwoFactor: build.mutation<{ message: string }, { code: string; password: string }>({
      query: (body) => ({ url: 'auth/2fa/disable', method: 'POST', body }),
      invalidatesTags: [TWO_FACTOR, ME],
    }),
    /** Admins: turn off another user's two-factor sign-in (a lost phone). */
    resetUserTwoFactor: build.mutation<{ user: User }, string>({
      query: (id) => ({ url: `users/${id}/2fa/reset`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'User', id }, { type: 'User', id: 'LIST' }],
    }),
    deleteUser: build.mutation<{ message?: string }, string>({
      query: (id) => ({ url: `users/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'User', id }, { type: 'User', id: 'LIST' }, 'Dashboard'],
    }),
  }),
});

export const {
  useGetUsersQuery,
  useGetUserQuery,
  useCreateUserMutation,
  useUpdateUserMutation,
  useDeleteUserMutation,
  useGetInvitationsQuery,
  useCreateInvitationMutation,
  useResendInvitationMutation,
  useRevokeInvitationMutation,
  useGetTwoFactorQuery,
  useSetupTwoFactorMutation,
  useConfirmTwoFactorMutation,
  useRegenerateRecoveryCodesMutation,
  useDisableTwoFactorMutation,
  useResetUserTwoFactorMutation,
} = usersApi;
