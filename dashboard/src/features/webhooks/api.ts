import { api } from '@/lib/api';
import type { Pagination } from '@/lib/types';

/** A webhook endpoint (`GET /api/webhooks`); `secret` only in the replies of create and rotate. */
export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string;
  events: string[];
  active: boolean;
  /** Set when failures turned the endpoint off (when and why). */
  disabledReason: string | null;
  consecutiveFailures: number;
  createdAt: string;
  updatedAt: string;
  secret?: string;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDelivery {
  id: string;
  webhookId: string;
  event: string;
  status: DeliveryStatus | string;
  attempt: number;
  responseStatus: number | null;
  responseExcerpt: string;
  durationMs: number | null;
  error: string;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
}

export interface WebhookList {
  endpoints: WebhookEndpoint[];
  /** Every event one can subscribe to. */
  events: string[];
}

export interface EndpointBody {
  url: string;
  description: string;
  events: string[];
  active: boolean;
}

export interface DeliveryPage {
  deliveries: WebhookDelivery[];
  pagination: Pagination;
}

const LIST = { type: 'Webhook' as const, id: 'LIST' };

export const webhooksApi = api.injectEndpoints({
  endpoints: (build) => ({
    getWebhooks: build.query<WebhookList, void>({
      query: () => 'webhooks',
      transformResponse: (r: Partial<WebhookList>) => ({ endpoints: r.endpoints ?? [], events: r.events ?? [] }),
      providesTags: (result) => [LIST, ...(result?.endpoints ?? []).map((e) => ({ type: 'Webhook' as const, id: e.id }))],
    }),
    createWebhook: build.mutation<{ message?: string; endpoint: WebhookEndpoint }, EndpointBody>({
      query: (body) => ({ url: 'webhooks', method: 'POST', body }),
      invalidatesTags: [LIST],
    }),
    updateWebhook: build.mutation<{ message?: string; endpoint: WebhookEndpoint }, { id: string; body: Partial<EndpointBody> }>({
      query: ({ id, body }) => ({ url: `webhooks/${id}`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { id }) => [LIST, { type: 'Webhook', id }],
    }),
    deleteWebhook: build.mutation<{ message?: string }, string>({
      query: (id) => ({ url: `webhooks/${id}`, method: 'DELETE' }),
      invalidatesTags: [LIST],
    }),
    rotateWebhookSecret: build.mutation<{ message?: string; endpoint: WebhookEndpoint }, string>({
      query: (id) => ({ url: `webhooks/${id}/secret/rotate`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Webhook', id }],
    }),
    sendTestEvent: build.mutation<{ message?: string; delivery: WebhookDelivery }, string>({
      query: (id) => ({ url: `webhooks/${id}/test`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'WebhookDelivery', id }],
    }),
    getDeliveries: build.query<DeliveryPage, { id: string; page: number; limit?: number }>({
      query: ({ id, page, limit = 20 }) => ({ url: `webhooks/${id}/deliveries`, params: { page, limit } }),
      providesTags: (_r, _e, { id }) => [{ type: 'WebhookDelivery', id }],
    }),
    redeliver: build.mutation<{ message?: string; delivery: WebhookDelivery }, { id: string; deliveryId: string }>({
      query: ({ id, deliveryId }) => ({ url: `webhooks/${id}/deliveries/${deliveryId}/redeliver`, method: 'POST' }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'WebhookDelivery', id }, { type: 'Webhook', id }],
    }),
  }),
});

export const {
  useGetWebhooksQuery,
  useCreateWebhookMutation,
  useUpdateWebhookMutation,
  useDeleteWebhookMutation,
  useRotateWebhookSecretMutation,
  useSendTestEventMutation,
  useGetDeliveriesQuery,
  useRedeliverMutation,
} = webhooksApi;
