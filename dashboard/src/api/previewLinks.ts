import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';

type Schemas = components['schemas'];

/** A link that reads an unpublished post through the content API until it expires or is revoked. */
export type PreviewLink = Schemas['PreviewLinkOut'];

export const previewLinksApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPreviewLinks: build.query<PreviewLink[], string>({
      query: (id) => `posts/${id}/preview-links`,
      transformResponse: (r: Schemas['PreviewLinkListOut']) => r.links,
      providesTags: (_r, _e, id) => [{ type: 'PreviewLink', id }],
    }),
    createPreviewLink: build.mutation<Schemas['PreviewLinkSavedOut'], string>({
      query: (id) => ({ url: `posts/${id}/preview-links`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'PreviewLink', id }],
    }),
    revokePreviewLink: build.mutation<Schemas['PreviewLinkSavedOut'], { id: string; linkId: string }>({
      query: ({ id, linkId }) => ({ url: `posts/${id}/preview-links/${linkId}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'PreviewLink', id }],
    }),
  }),
});

export const { useGetPreviewLinksQuery, useCreatePreviewLinkMutation, useRevokePreviewLinkMutation } = previewLinksApi;
