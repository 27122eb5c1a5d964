import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';

type Schemas = components['schemas'];

/**
 * Newsletters and sending posts by email (docs/newsletters.md#dashboard-api): every role reads
 * them (`members.read`); editors and admins manage newsletters (`newsletters.manage`) and send
 * posts (`newsletters.send`).
 */
export type Newsletter = Schemas['NewsletterOut'];
export type NewsletterStatus = Newsletter['status'];
/** A new newsletter (`name` required); left out: the server's defaults. */
export type NewsletterBody = Schemas['NewsletterIn'];
/** A change: what is left out stays as it is. */
export type NewsletterChanges = Schemas['NewsletterUpdateIn'];
/** One send of a post to a newsletter (all its members, or those with a label). */
export type NewsletterSend = Schemas['SendOut'];
export type SendStatus = NewsletterSend['status'];
/** A send with its counts (delivered, failed, bounced, ...) and the reasons of its failures. */
export type SendReport = Schemas['SendReportOut'];
export type SendBody = Schemas['SendIn'] & { postId: string };
/** Whether the emails of sends starting from now on count opens and clicks (off by default; admins
 * change it: `newsletters.tracking`). */
export type NewsletterSettings = Schemas['NewsletterSettingsOut'];

/** The server's limits (apps/newsletters/models.py, rendering.py). */
export const NEWSLETTER_NAME_MAX = 191;
export const NEWSLETTER_TEXT_MAX = 2000;
export const SUBJECT_MAX = 300;

/** Settings → Newsletters, and a send's report. */
export const NEWSLETTERS_PATH = '/dashboard/settings/newsletters';
export const sendReportPath = (id: string) => `${NEWSLETTERS_PATH}/sends/${id}`;

/** Still moving: its report and the post's sends are read again until it has finished. */
export function sendInProgress(send: NewsletterSend): boolean {
  return send.status === 'queued' || send.status === 'sending';
}

/** A send that keeps the post from going to the same newsletter again (409): all but failed and
 * cancelled ones. */
export function sendBlocks(send: NewsletterSend): boolean {
  return send.status !== 'failed' && send.status !== 'cancelled';
}

/** "1 member", "12 members". */
export function members(n: number): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? 'member' : 'members'}`;
}

const LIST = { type: 'Newsletter' as const, id: 'LIST' };
const SETTINGS = { type: 'Newsletter' as const, id: 'SETTINGS' };
const sendsOf = (postId: string) => ({ type: 'NewsletterSend' as const, id: `POST-${postId}` });

export const newslettersApi = api.injectEndpoints({
  endpoints: (build) => ({
    getNewsletters: build.query<Newsletter[], void>({
      query: () => 'newsletters',
      transformResponse: (r: Schemas['NewsletterListOut']) => r.newsletters,
      providesTags: (result) => [LIST, ...(result ?? []).map((n) => ({ type: 'Newsletter' as const, id: n.id }))],
    }),
    createNewsletter: build.mutation<Schemas['NewsletterSavedOut'], NewsletterBody>({
      query: (body) => ({ url: 'newsletters', method: 'POST', body }),
      invalidatesTags: [LIST],
    }),
    updateNewsletter: build.mutation<Schemas['NewsletterSavedOut'], { id: string; body: NewsletterChanges }>({
      query: ({ id, body }) => ({ url: `newsletters/${id}`, method: 'PUT', body }),
      // Sends name their newsletter: a rename shows on them too.
      invalidatesTags: (_r, _e, { id }) => [LIST, { type: 'Newsletter', id }, 'NewsletterSend'],
    }),
    getNewsletterSettings: build.query<NewsletterSettings, void>({
      query: () => 'newsletters/settings',
      transformResponse: (r: Schemas['NewsletterSettingsReplyOut']) => r.settings,
      providesTags: [SETTINGS],
    }),
    updateNewsletterSettings: build.mutation<Schemas['NewsletterSettingsReplyOut'], Schemas['NewsletterSettingsIn']>({
      query: (body) => ({ url: 'newsletters/settings', method: 'PUT', body }),
      invalidatesTags: [SETTINGS],
    }),
    /** How many members a send would email now (asked again each time the dialog opens). */
    getSendRecipients: build.query<number, { postId: string; newsletterId: string; labelId?: string }>({
      query: ({ postId, newsletterId, labelId }) => ({
        url: `posts/${postId}/send/recipients`,
        params: { newsletterId, ...(labelId ? { labelId } : {}) },
      }),
      transformResponse: (r: Schemas['RecipientsOut']) => r.recipients,
      keepUnusedDataFor: 0,
    }),
    /** Send now (a published post: 202 "The post is being sent") or when it publishes (scheduled). */
    sendPost: build.mutation<Schemas['SendReplyOut'], SendBody>({
      query: ({ postId, ...body }) => ({ url: `posts/${postId}/send`, method: 'POST', body }),
      invalidatesTags: (_r, _e, { postId }) => [sendsOf(postId), LIST],
    }),
    /** The post's email as the newsletter sends it, to the signed-in user's own address. */
    sendTestEmail: build.mutation<Schemas['MessageOut'], { postId: string; newsletterId: string }>({
      query: ({ postId, newsletterId }) => ({ url: `posts/${postId}/send/test`, method: 'POST', body: { newsletterId } }),
    }),
    getPostSends: build.query<NewsletterSend[], string>({
      query: (postId) => `posts/${postId}/sends`,
      transformResponse: (r: Schemas['SendListOut']) => r.sends,
      providesTags: (result, _e, postId) => [
        sendsOf(postId),
        ...(result ?? []).map((s) => ({ type: 'NewsletterSend' as const, id: s.id })),
      ],
    }),
    getSendReport: build.query<SendReport, string>({
      query: (id) => `newsletters/sends/${id}`,
      providesTags: (_r, _e, id) => [{ type: 'NewsletterSend', id }],
    }),
    /** A send waiting for its post's publication is not sent. */
    cancelSend: build.mutation<Schemas['SendReplyOut'], string>({
      query: (id) => ({ url: `newsletters/sends/${id}/cancel`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'NewsletterSend', id }],
    }),
  }),
});

export const {
  useGetNewslettersQuery,
  useCreateNewsletterMutation,
  useUpdateNewsletterMutation,
  useGetNewsletterSettingsQuery,
  useUpdateNewsletterSettingsMutation,
  useGetSendRecipientsQuery,
  useSendPostMutation,
  useSendTestEmailMutation,
  useGetPostSendsQuery,
  useGetSendReportQuery,
  useCancelSendMutation,
} = newslettersApi;
