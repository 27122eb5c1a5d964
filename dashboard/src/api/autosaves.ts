import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';

type Schemas = components['schemas'];

/** The signed-in user's unsaved copy of a post, kept while they type. */
export interface Autosave<F = Record<string, unknown>> extends Omit<Schemas['AutosaveOut'], 'fields'> {
  fields: F;
}

/** A post's id, or `new`: the copy of a post not created yet. */
export type AutosaveTarget = string;

export const autosavesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAutosave: build.query<Autosave | null, AutosaveTarget>({
      query: (id) => `posts/${id}/autosave`,
      transformResponse: (r: Schemas['AutosaveReplyOut']) => r.autosave,
      providesTags: (_r, _e, id) => [{ type: 'Autosave', id }],
    }),
    putAutosave: build.mutation<Autosave | null, { id: AutosaveTarget; fields: unknown; baseUpdatedAt?: string | null }>({
      query: ({ id, fields, baseUpdatedAt }) => ({
        url: `posts/${id}/autosave`,
        method: 'PUT',
        body: { fields, baseUpdatedAt: baseUpdatedAt ?? null },
      }),
      transformResponse: (r: Schemas['AutosaveReplyOut']) => r.autosave,
    }),
    deleteAutosave: build.mutation<Schemas['MessageOut'], AutosaveTarget>({
      query: (id) => ({ url: `posts/${id}/autosave`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Autosave', id }],
    }),
  }),
});

export const { useGetAutosaveQuery, usePutAutosaveMutation, useDeleteAutosaveMutation } = autosavesApi;
