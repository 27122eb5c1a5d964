import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';

type Schemas = components['schemas'];
export type TwoFactorStatus = Schemas['TwoFactorStatusOut'];
export type TwoFactorSetup = Schemas['TwoFactorSetupOut'];
export type RecoveryCodesReply = Schemas['RecoveryCodesOut'];
export type TwoFactorPolicy = Schemas['TwoFactorPolicyOut'];

const TWO_FACTOR = { type: 'User' as const, id: 'TWO_FACTOR' };
const ME = { type: 'User' as const, id: 'ME' };

/** Two-factor sign-in: the signed-in user's own (the account page), an admin's reset of another
 * user's, and the company's policy of requiring it (settings). The sign-in's second step is in
 * session.ts. */
export const twoFactorApi = api.injectEndpoints({
  endpoints: (build) => ({
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
    disableTwoFactor: build.mutation<Schemas['MessageOut'], { code: string; password: string }>({
      query: (body) => ({ url: 'auth/2fa/disable', method: 'POST', body }),
      invalidatesTags: [TWO_FACTOR, ME],
    }),
    /** Admins: turn off another user's two-factor sign-in (a lost phone). */
    resetUserTwoFactor: build.mutation<Schemas['UserReplyOut'], string>({
      query: (id) => ({ url: `users/${id}/2fa/reset`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'User', id }, { type: 'User', id: 'LIST' }],
    }),
    /** Admins: whether the company requires two-factor sign-in, and who is still without it. */
    getTwoFactorPolicy: build.query<TwoFactorPolicy, void>({
      query: () => 'client/two-factor-policy',
      providesTags: [{ type: 'Client', id: 'TWO_FACTOR' }],
    }),
    updateTwoFactorPolicy: build.mutation<TwoFactorPolicy, { required: boolean }>({
      query: (body) => ({ url: 'client/two-factor-policy', method: 'PUT', body }),
      invalidatesTags: [{ type: 'Client', id: 'TWO_FACTOR' }, ME],
    }),
  }),
});

export const {
  useGetTwoFactorQuery,
  useSetupTwoFactorMutation,
  useConfirmTwoFactorMutation,
  useRegenerateRecoveryCodesMutation,
  useDisableTwoFactorMutation,
  useResetUserTwoFactorMutation,
  useGetTwoFactorPolicyQuery,
  useUpdateTwoFactorPolicyMutation,
} = twoFactorApi;
