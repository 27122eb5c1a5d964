import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';
import { rowPath, type ContentRef } from './posts';

type Schemas = components['schemas'];

/** The signed-in user's unsaved copy of a post, kept while they type. */
export interface Autosave<F = Record<string, unknown>> extends Omit<Schemas['AutosaveOut'], 'fields'> {
  fields: F;
}

/** A post's (or a page's) id, or `new`: the copy of a post (page) not created yet. */
export type AutosaveTarget = ContentRef;

/** One tag per copy: `new` is a post's and a page's own. */
const tagOf = (target: AutosaveTarget) => ({ type: 'Autosave' as const, id: rowPath(target) });

export const autosavesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAutosave: build.query<Autosave | null, AutosaveTarget>({
      query: (target) => `${rowPath(target)}/autosave`,
      transformResponse: (r: Schemas['AutosaveReplyOut']) => r.autosave,
      providesTags: (_r, _e, target) => [tagOf(target)],
    }),
    putAutosave: build.mutation<Autosave | null, { id: AutosaveTarget; fields: unknown; baseUpdatedAt?: string | null }>({
      query: ({ id, fields, baseUpdatedAt }) => ({
        url: `${rowPath(id)}/autosave`,
        method: 'PUT',
        body: { fields, baseUpdatedAt: baseUpdatedAt ?? null },
      }),
      transformResponse: (r: Schemas['AutosaveReplyOut']) => r.autosave,
    }),
    deleteAutosave: build.mutation<Schemas['MessageOut'], AutosaveTarget>({
      query: (target) => ({ url: `${rowPath(target)}/autosave`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, target) => [tagOf(target)],
    }),
  }),
});

export const { useGetAutosaveQuery, usePutAutosaveMutation, useDeleteAutosaveMutation } = autosavesApi;
