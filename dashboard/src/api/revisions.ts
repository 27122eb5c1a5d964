import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';
import { rowPath, type ContentCollection } from './posts';

type Schemas = components['schemas'];

/** One save of a post; `Revision` adds the post's editable fields as that save left them (wire
 * names; categories and tags as ids). */
export type RevisionSummary = Schemas['RevisionSummaryOut'];
export type Revision = Schemas['RevisionOut'];
export type RevisionPage = Schemas['RevisionListOut'];

/** A post's history: its saves, one save in full, and restoring one as a new save. */
export const revisionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getRevisions: build.query<RevisionPage, { id: string; page: number; limit?: number; kind?: ContentCollection }>({
      query: ({ id, page, limit = 20, kind = 'posts' }) => ({ url: `${rowPath({ kind, id })}/revisions`, params: { page, limit } }),
      providesTags: (_r, _e, { id }) => [{ type: 'PostHistory', id }],
    }),
    getRevision: build.query<Revision, { id: string; revisionId: string; kind?: ContentCollection }>({
      query: ({ id, revisionId, kind = 'posts' }) => `${rowPath({ kind, id })}/revisions/${revisionId}`,
      transformResponse: (r: Schemas['RevisionReplyOut']) => r.revision,
      providesTags: (_r, _e, { id }) => [{ type: 'PostHistory', id }],
    }),
    restoreRevision: build.mutation<Schemas['PostSavedOut'], { id: string; revisionId: string; kind?: ContentCollection }>({
      query: ({ id, revisionId, kind = 'posts' }) => ({ url: `${rowPath({ kind, id })}/revisions/${revisionId}/restore`, method: 'POST' }),
      invalidatesTags: (_r, _e, { id }) => [
        { type: 'Post', id },
        { type: 'Post', id: 'LIST' },
        { type: 'PostHistory', id },
        'Dashboard',
        'Search',
      ],
    }),
  }),
});

export const { useGetRevisionsQuery, useGetRevisionQuery, useRestoreRevisionMutation } = revisionsApi;
