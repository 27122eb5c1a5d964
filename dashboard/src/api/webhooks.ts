import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';

type Schemas = components['schemas'];

/** A webhook endpoint; `secret` only in the replies of create and rotate. `disabledReason` says
 * when and why failures turned it off. */
export type WebhookEndpoint = Schemas['EndpointOut'];
export type WebhookDelivery = Schemas['DeliveryOut'];
/** The endpoints, and every event one can subscribe to. */
export type WebhookList = Pick<Schemas['EndpointListOut'], 'endpoints' | 'events'>;
export type DeliveryPage = Schemas['DeliveryListOut'];

export interface EndpointBody {
  url: string;
  description: string;
  events: string[];
  active: boolean;
}

const LIST = { type: 'Webhook' as const, id: 'LIST' };
const deliveries = (id: string) => ({ type: 'WebhookDelivery' as const, id });

/** Webhook endpoints (admins) and their delivery logs. */
export const webhooksApi = api.injectEndpoints({
  endpoints: (build) => ({
    getWebhooks: build.query<WebhookList, void>({
      query: () => 'webhooks',
      transformResponse: (r: Partial<WebhookList>) => ({ endpoints: r.endpoints ?? [], events: r.events ?? [] }),
      providesTags: (result) => [LIST, ...(result?.endpoints ?? []).map((e) => ({ type: 'Webhook' as const, id: e.id }))],
    }),
    createWebhook: build.mutation<Schemas['EndpointSavedOut'], EndpointBody>({
      query: (body) => ({ url: 'webhooks', method: 'POST', body }),
      invalidatesTags: [LIST],
    }),
    updateWebhook: build.mutation<Schemas['EndpointSavedOut'], { id: string; body: Partial<EndpointBody> }>({
      query: ({ id, body }) => ({ url: `webhooks/${id}`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { id }) => [LIST, { type: 'Webhook', id }],
    }),
    deleteWebhook: build.mutation<Schemas['MessageOut'], string>({
      query: (id) => ({ url: `webhooks/${id}`, method: 'DELETE' }),
      invalidatesTags: [LIST],
    }),
    rotateWebhookSecret: build.mutation<Schemas['EndpointSavedOut'], string>({
      query: (id) => ({ url: `webhooks/${id}/secret/rotate`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Webhook', id }],
    }),
    sendTestEvent: build.mutation<Schemas['DeliveryQueuedOut'], string>({
      query: (id) => ({ url: `webhooks/${id}/test`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [deliveries(id)],
    }),
    getDeliveries: build.query<DeliveryPage, { id: string; page: number; limit?: number }>({
      query: ({ id, page, limit = 20 }) => ({ url: `webhooks/${id}/deliveries`, params: { page, limit } }),
      providesTags: (_r, _e, { id }) => [deliveries(id)],
    }),
    redeliver: build.mutation<Schemas['DeliveryQueuedOut'], { id: string; deliveryId: string }>({
      query: ({ id, deliveryId }) => ({ url: `webhooks/${id}/deliveries/${deliveryId}/redeliver`, method: 'POST' }),
      invalidatesTags: (_r, _e, { id }) => [deliveries(id), { type: 'Webhook', id }],
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
