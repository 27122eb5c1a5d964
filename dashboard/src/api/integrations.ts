import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';

type Schemas = components['schemas'];

/** An integration: one outside tool with its own Content API and Admin API keys. The keys whole
 * (`contentKey`, `adminKey`) are only in the reply of the write that made them (create, rotate);
 * otherwise their hints. `companyKey`: the company's own Ghost content key ("Website"). */
export type Integration = Schemas['IntegrationOut'];
/** The integrations, and the Ghost URL a tool asks for (the company host). */
export type IntegrationList = Schemas['IntegrationListOut'];
export type IntegrationSaved = Schemas['IntegrationSavedOut'];
/** Which keys a rotation replaces. */
export type IntegrationKey = NonNullable<Schemas['IntegrationRotateIn']['keys']>[number];

/** The longest name the server takes (apps/integrations/schemas.py). */
export const NAME_MAX = 191;

const LIST = { type: 'Integration' as const, id: 'LIST' };

/** Settings → Integrations (admins: integrations.manage). */
export const integrationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getIntegrations: build.query<IntegrationList, void>({
      query: () => 'integrations',
      providesTags: (result) => [LIST, ...(result?.integrations ?? []).map((i) => ({ type: 'Integration' as const, id: i.id }))],
    }),
    createIntegration: build.mutation<IntegrationSaved, { name: string }>({
      query: (body) => ({ url: 'integrations', method: 'POST', body }),
      invalidatesTags: [LIST],
    }),
    rotateIntegration: build.mutation<IntegrationSaved, { id: string; keys: IntegrationKey[] }>({
      query: ({ id, keys }) => ({ url: `integrations/${id}/rotate`, method: 'POST', body: { keys } }),
      invalidatesTags: (_r, _e, { id }) => [LIST, { type: 'Integration', id }],
    }),
    deleteIntegration: build.mutation<Schemas['MessageOut'], string>({
      query: (id) => ({ url: `integrations/${id}`, method: 'DELETE' }),
      invalidatesTags: [LIST],
    }),
  }),
});

export const {
  useGetIntegrationsQuery,
  useCreateIntegrationMutation,
  useRotateIntegrationMutation,
  useDeleteIntegrationMutation,
} = integrationsApi;
