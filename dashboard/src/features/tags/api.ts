import { api } from '@/lib/api';
import type { Tag } from '@/lib/types';

export const tagsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTag: build.query<Tag, string>({
      query: (id) => `tags/${id}`,
      transformResponse: (r: { tag: Tag }) => r.tag,
      providesTags: (_r, _e, id) => [{ type: 'Tag', id }],
    }),
    updateTag: build.mutation<{ message?: string; tag: Tag }, { id: string; body: { name: string; slug: string } }>({
      query: ({ id, body }) => ({ url: `tags/${id}`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Tag', id }, { type: 'Tag', id: 'LIST' }, 'Search', 'Post'],
    }),
    deleteTag: build.mutation<{ message?: string }, string>({
      query: (id) => ({ url: `tags/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Tag', id }, { type: 'Tag', id: 'LIST' }, 'Dashboard', 'Search'],
    }),
  }),
});

export const { useGetTagQuery, useUpdateTagMutation, useDeleteTagMutation } = tagsApi;
