import {
  createApi,
  fetchBaseQuery,
  retry,
  type BaseQueryFn,
  type FetchArgs,
} from '@reduxjs/toolkit/query/react';
import { toast } from 'sonner';
import { SESSION_EXPIRED_MESSAGE, toApiError, type ApiError } from './errors';
import { loggedOut, type SessionState } from './session';

export const API_BASE = '/api';

const rawBaseQuery = fetchBaseQuery({
  baseUrl: API_BASE,
  prepareHeaders(headers, { getState }) {
    const token = (getState() as { session: SessionState }).session.token;
    if (token) headers.set('Authorization', `Bearer ${token}`);
    if (!headers.has('Accept')) headers.set('Accept', 'application/json');
    return headers;
  },
});

/** Log out with the session-expired toast (once, even when several requests fail together). */
export function expireSession(dispatch: (action: unknown) => unknown): void {
  dispatch(loggedOut());
  toast.error(SESSION_EXPIRED_MESSAGE, { id: 'session-expired' });
}

/**
 * Adds the bearer token, turns every failure into an ApiError read from the error envelope,
 * and logs out with the session-expired toast on a 401 or an expired token.
 */
export const baseQueryWithSession: BaseQueryFn<string | FetchArgs, unknown, ApiError> = async (
  args,
  api,
  extraOptions,
) => {
  const session = (api.getState() as { session: SessionState }).session;
  if (session.token && (!session.expiresAt || session.expiresAt <= Date.now())) {
    expireSession(api.dispatch);
    return { error: { status: 401, message: SESSION_EXPIRED_MESSAGE, kind: 'unauthorized' } };
  }
  const result = await rawBaseQuery(args, api, extraOptions);
  if (!result.error) return { data: result.data, meta: result.meta };
  const { error } = result;
  const status = error.status === 'PARSING_ERROR' ? error.originalStatus : error.status;
  const apiError = toApiError(status, 'data' in error ? error.data : undefined);
  if (status === 401 && session.token) expireSession(api.dispatch);
  // The company now requires two-factor sign-in and this user has not set it up: ask who we are
  // again, so the dashboard sends them to their account page (TwoFactorSetupGate).
  if (apiError.code === 'two_factor_setup_required') api.dispatch(cmsApi.util.invalidateTags([{ type: 'User', id: 'ME' }]));
  return { error: apiError, meta: result.meta };
};

/** Queries are retried once on network failures and server errors; writes never are. */
const baseQuery = retry(baseQueryWithSession, {
  retryCondition: (error, _args, { attempt, baseQueryApi }) => {
    if (attempt > 1 || baseQueryApi.type !== 'query') return false;
    const status = (error as ApiError).status;
    return typeof status !== 'number' || status >= 500;
  },
});

export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Post', 'Category', 'Tag', 'Media', 'User', 'Invitation', 'Client', 'Dashboard', 'Analytics', 'Search', 'AiJob', 'Webhook', 'WebhookDelivery', 'PostHistory', 'Autosave', 'PreviewLink', 'Integration', 'Member', 'MemberLabel', 'Newsletter', 'NewsletterSend'],
  refetchOnFocus: false,
  refetchOnReconnect: false,
  endpoints: () => ({}),
});

const cmsApi = api;
