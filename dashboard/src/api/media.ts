import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';
import { errorCode, errorMessage } from '@/lib/errors';

type Schemas = components['schemas'];
export type Media = Schemas['MediaOut'];
export type MediaRenditions = Schemas['RenditionsOut'];
export type MediaPage = Schemas['MediaListOut'];

export interface MediaQuery {
  page?: number;
  limit?: number;
  search?: string;
}

/** A usable URL of a media item (link, then CDN URL), or an empty string. */
export function mediaUrl(media?: Partial<Media> | null): string {
  return media?.link || media?.cdnUrl || '';
}

export function mediaThumbnail(media?: Partial<Media> | null): string {
  return media?.renditions?.thumbnail || media?.renditions?.small || mediaUrl(media);
}

/** The media library: used by its screen and by the pickers of the post form. */
export const mediaApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMedia: build.query<MediaPage, MediaQuery>({
      query: ({ page = 1, limit = 12, search }) => ({
        url: 'media',
        params: { page, limit, ...(search ? { search } : {}) },
      }),
      providesTags: (result) => [
        { type: 'Media' as const, id: 'LIST' },
        ...(result?.media ?? []).map((m) => ({ type: 'Media' as const, id: m.id })),
      ],
    }),
    uploadMedia: build.mutation<Schemas['MediaSavedOut'], File>({
      query: (file) => {
        const form = new FormData();
        form.append('file', file, file.name);
        form.append('fileName', file.name);
        form.append('fileType', file.type);
        form.append('fileSize', String(file.size));
        form.append('altText', file.name);
        return { url: 'media/upload', method: 'POST', body: form };
      },
      invalidatesTags: [{ type: 'Media', id: 'LIST' }, 'Dashboard'],
    }),
    /** The alt text (the default language's) and, for a company with several languages, the alt
     * text per language (`altTexts` replaces the whole map; an empty text drops a language). */
    updateMedia: build.mutation<Schemas['MediaSavedOut'], { id: string; altText: string; altTexts?: Record<string, string> }>({
      query: ({ id, ...body }) => ({ url: `media/${id}`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Media', id }, { type: 'Media', id: 'LIST' }],
    }),
    deleteMedia: build.mutation<Schemas['MessageOut'], string>({
      query: (id) => ({ url: `media/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Media', id }, { type: 'Media', id: 'LIST' }, 'Dashboard'],
    }),
  }),
});

export const { useGetMediaQuery, useUploadMediaMutation, useUpdateMediaMutation, useDeleteMediaMutation } = mediaApi;

/** Spec §8: the text shown when deleting media fails (`media_in_use`: the count the server names). */
export function mediaDeleteError(error: unknown): string {
  const message = errorMessage(error, '');
  if (errorCode(error) === 'media_in_use') {
    const count = message.match(/(\d+)\s+posts?/)?.[1] ?? 'some';
    return `Cannot delete media. It is currently used as featured image in ${count} posts. Please update those posts first.`;
  }
  return message || 'Failed to delete media';
}
