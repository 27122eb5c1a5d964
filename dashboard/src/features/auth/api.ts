import { api } from '@/lib/api';
import type { SessionUser } from '@/lib/session';
import type { LoginValues, RegisterValues } from './schemas';

export interface LoginReply {
  success: boolean;
  token: string;
  expiresIn: number;
  message?: string;
  user?: SessionUser;
}

export interface RegisterReply {
  success: boolean;
  message?: string;
  data?: { subdomain: string; loginUrl: string };
}

export interface MessageReply {
  success: boolean;
  message: string;
}

export interface ResetLink {
  uid: string;
  token: string;
}

export interface ResetLinkReply {
  success: boolean;
  email: string;
  username: string;
}

export interface InvitationCheckReply {
  success: boolean;
  email: string;
  role: string;
}

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    checkInvitation: build.mutation<InvitationCheckReply, { token: string }>({
      query: (body) => ({ url: 'auth/invitation/check', method: 'POST', body }),
    }),
    acceptInvitation: build.mutation<LoginReply, { token: string; username: string; password: string }>({
      query: (body) => ({ url: 'auth/accept-invitation', method: 'POST', body }),
    }),
    forgotPassword: build.mutation<MessageReply, { email: string }>({
      query: (body) => ({ url: 'auth/forgot-password', method: 'POST', body }),
    }),
    checkResetLink: build.mutation<ResetLinkReply, ResetLink>({
      query: (body) => ({ url: 'auth/reset-password/check', method: 'POST', body }),
    }),
    resetPassword: build.mutation<MessageReply, ResetLink & { password: string }>({
      query: (body) => ({ url: 'auth/reset-password', method: 'POST', body }),
    }),
    login: build.mutation<LoginReply, LoginValues>({
      query: (body) => ({ url: 'auth/login', method: 'POST', body }),
    }),
    /** The sign-in's second step: the challenge of the login's 403 `two_factor_required` and a code. */
    loginTwoFactor: build.mutation<LoginReply, { challengeToken: string; code: string }>({
      query: (body) => ({ url: 'auth/login/2fa', method: 'POST', body }),
    }),
    /** Root domain: email the address the sign-in pages of its companies (same reply for any address). */
    findCompanies: build.mutation<MessageReply, { email: string }>({
      query: (body) => ({ url: 'auth/find-companies', method: 'POST', body }),
    }),
    registerClient: build.mutation<RegisterReply, RegisterValues>({
      query: (body) => ({ url: 'auth/register-client', method: 'POST', body }),
    }),
  }),
});

export const {
  useLoginMutation,
  useLoginTwoFactorMutation,
  useFindCompaniesMutation,
  useRegisterClientMutation,
  useForgotPasswordMutation,
  useCheckResetLinkMutation,
  useResetPasswordMutation,
  useCheckInvitationMutation,
  useAcceptInvitationMutation,
} = authApi;

/** The user carried in a JWT payload (used when the login reply has no user object). */
export function userFromToken(token: string): SessionUser | null {
  try {
    const part = token.split('.')[1];
    if (!part) return null;
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '='));
    const payload = JSON.parse(json) as Partial<SessionUser>;
    if (!payload.userId || !payload.username || !payload.role) return null;
    return { userId: String(payload.userId), username: payload.username, role: payload.role };
  } catch {
    return null;
  }
}
