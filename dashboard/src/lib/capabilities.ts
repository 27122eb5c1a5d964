import { api } from './api';
import { useAppSelector } from './hooks';
import { selectUser } from './session';

/**
 * What the signed-in role may do: the server's capability table (apps/core/permissions.py),
 * sent once per sign-in by GET /api/auth/me. Screens ask `useCan(...)` and never compare role
 * names, so the dashboard hides exactly what the server would refuse.
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
  | 'audit.read';

export interface MeReply {
  success: boolean;
  user: { id: string; username: string; role: string };
  capabilities: Capability[];
  /** (+) Two-factor sign-in is on for this user. */
  twoFactorEnabled?: boolean;
  /** (+) The company requires two-factor sign-in of everyone. */
  twoFactorRequired?: boolean;
}

const meApi = api.injectEndpoints({
  endpoints: (build) => ({
    // The token is the cache key: a new sign-in asks again.
    getMe: build.query<MeReply, string>({
      query: () => 'auth/me',
      providesTags: [{ type: 'User', id: 'ME' }],
    }),
  }),
});

const NONE: ReadonlySet<Capability> = new Set();

/** The signed-in user's capabilities; empty until the server has answered (nothing is offered early). */
export function useCapabilities(): { capabilities: ReadonlySet<Capability>; ready: boolean } {
  const token = useAppSelector((s) => s.session.token);
  const { data } = meApi.useGetMeQuery(token ?? '', { skip: !token });
  const capabilities = data?.capabilities;
  return { capabilities: capabilities ? new Set(capabilities) : NONE, ready: !!capabilities };
}

/**
 * Two-factor sign-in of the signed-in user: whether it is on, whether the company requires it, and
 * so whether the user must set it up before anything else answers (`setupRequired`).
 */
export function useTwoFactorState(): { enabled: boolean; required: boolean; setupRequired: boolean; ready: boolean } {
  const token = useAppSelector((s) => s.session.token);
  const { data } = meApi.useGetMeQuery(token ?? '', { skip: !token });
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
