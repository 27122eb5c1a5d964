import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';
import { useAppSelector } from '@/lib/hooks';
import { selectUser } from '@/lib/session';

type Schemas = components['schemas'];

/**
 * Signing in and getting back in (a forgotten password), and what the signed-in role may do: the
 * server's capability table (apps/core/permissions.py), sent once per sign-in by GET /api/auth/me.
 * Screens ask `useCan(...)` and never compare role names, so the dashboard hides exactly what the
 * server would refuse.
 */
export type Capability =
  | 'content.read'
  | 'post.create'
  | 'post.edit_own'
  | 'post.edit_any'
  | 'post.publish'
  | 'post.change_live'
  | 'post.delete_own'
  | 'post.delete_any'
  | 'post.request_review'
  | 'post.review'
  | 'taxonomy.create'
  | 'taxonomy.manage'
  | 'media.upload'
  | 'media.edit_own'
  | 'media.manage'
  | 'ai.generate'
  | 'analytics.read'
  | 'users.manage'
  | 'settings.manage'
  | 'company.delete'
  | 'audit.read'
  | 'usage.read'
  | 'integrations.manage'
  | 'members.read'
  | 'members.manage'
  | 'newsletters.manage'
  | 'newsletters.send'
  | 'newsletters.tracking';

export type LoginReply = Schemas['LoginOut'];
export type ResetLinkReply = Schemas['ResetLinkOut'];

export interface ResetLink {
  uid: string;
  token: string;
}

export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginReply, { email: string; password: string }>({
      query: (body) => ({ url: 'auth/login', method: 'POST', body }),
    }),
    /** The sign-in's second step: the challenge of the login's 403 `two_factor_required` and a code. */
    loginTwoFactor: build.mutation<LoginReply, { challengeToken: string; code: string }>({
      query: (body) => ({ url: 'auth/login/2fa', method: 'POST', body }),
    }),
    /** Root domain: email the address the sign-in pages of its companies (same reply for any address). */
    findCompanies: build.mutation<Schemas['MessageOut'], { email: string }>({
      query: (body) => ({ url: 'auth/find-companies', method: 'POST', body }),
    }),
    // The token is the cache key: a new sign-in asks again.
    getMe: build.query<Schemas['MeOut'], string>({
      query: () => 'auth/me',
      providesTags: [{ type: 'User', id: 'ME' }],
    }),
    forgotPassword: build.mutation<Schemas['MessageOut'], { email: string }>({
      query: (body) => ({ url: 'auth/forgot-password', method: 'POST', body }),
    }),
    checkResetLink: build.mutation<ResetLinkReply, ResetLink>({
      query: (body) => ({ url: 'auth/reset-password/check', method: 'POST', body }),
    }),
    resetPassword: build.mutation<Schemas['MessageOut'], ResetLink & { password: string }>({
      query: (body) => ({ url: 'auth/reset-password', method: 'POST', body }),
    }),
  }),
});

export const {
  useLoginMutation,
  useLoginTwoFactorMutation,
  useFindCompaniesMutation,
  useForgotPasswordMutation,
  useCheckResetLinkMutation,
  useResetPasswordMutation,
} = sessionApi;

const NONE: ReadonlySet<Capability> = new Set();

/** The signed-in user's capabilities; empty until the server has answered (nothing is offered early). */
export function useCapabilities(): { capabilities: ReadonlySet<Capability>; ready: boolean } {
  const token = useAppSelector((s) => s.session.token);
  const { data } = sessionApi.useGetMeQuery(token ?? '', { skip: !token });
  const capabilities = data?.capabilities as Capability[] | undefined;
  return { capabilities: capabilities ? new Set(capabilities) : NONE, ready: !!capabilities };
}

/**
 * Two-factor sign-in of the signed-in user: whether it is on, whether the company requires it, and
 * so whether the user must set it up before anything else answers (`setupRequired`).
 */
export function useTwoFactorState(): { enabled: boolean; required: boolean; setupRequired: boolean; ready: boolean } {
  const token = useAppSelector((s) => s.session.token);
  const { data } = sessionApi.useGetMeQuery(token ?? '', { skip: !token });
  const enabled = !!data?.twoFactorEnabled;
  const required = !!data?.twoFactorRequired;
  return { enabled, required, setupRequired: required && !enabled, ready: !!data };
}

/** Whether the signed-in role may do `capability` (false while unknown). */
export function useCan(capability: Capability): boolean {
  return useCapabilities().capabilities.has(capability);
}

/**
 * What the signed-in user may do to one post, from the same rules the server applies
 * (apps/content/services.py): any post with `*_any`, their own with `*_own`, and a published or
 * scheduled one only with `post.change_live`.
 */
export function usePostRights(post?: { author?: { id?: string } | null; status?: string; isScheduled?: boolean } | null) {
  const { capabilities: can } = useCapabilities();
  const user = useAppSelector(selectUser);
  const own = !post || (!!post.author?.id && post.author.id === user?.userId);
  const live = !!post && (post.status === 'published' || !!post.isScheduled);
  const liveOk = !live || can.has('post.change_live');
  return {
    edit: (can.has('post.edit_any') || (can.has('post.edit_own') && own)) && liveOk,
    remove: (can.has('post.delete_any') || (can.has('post.delete_own') && own)) && liveOk,
    publish: can.has('post.publish'),
    requestReview: can.has('post.request_review') && !can.has('post.publish'),
    review: can.has('post.review'),
  };
}
