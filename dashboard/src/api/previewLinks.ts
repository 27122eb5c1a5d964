import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';
import { refOf, rowPath, type ContentCollection, type ContentRef } from './posts';

type Schemas = components['schemas'];

/** A link that reads an unpublished post through the content API until it expires or is revoked. */
export type PreviewLink = Schemas['PreviewLinkOut'];

export const previewLinksApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPreviewLinks: build.query<PreviewLink[], ContentRef>({
      query: (ref) => `${rowPath(ref)}/preview-links`,
      transformResponse: (r: Schemas['PreviewLinkListOut']) => r.links,
      providesTags: (_r, _e, ref) => [{ type: 'PreviewLink', id: refOf(ref).id }],
    }),
    createPreviewLink: build.mutation<Schemas['PreviewLinkSavedOut'], ContentRef>({
      query: (ref) => ({ url: `${rowPath(ref)}/preview-links`, method: 'POST' }),
      invalidatesTags: (_r, _e, ref) => [{ type: 'PreviewLink', id: refOf(ref).id }],
    }),
    revokePreviewLink: build.mutation<Schemas['PreviewLinkSavedOut'], { id: string; linkId: string; kind?: ContentCollection }>({
      query: ({ id, linkId, kind = 'posts' }) => ({ url: `${rowPath({ kind, id })}/preview-links/${linkId}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'PreviewLink', id }],
    }),
  }),
});

export const { useGetPreviewLinksQuery, useCreatePreviewLinkMutation, useRevokePreviewLinkMutation } = previewLinksApi;
