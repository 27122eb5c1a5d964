import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';
import type { AiReply } from '@/lib/aiApi';
import type {
  Autosave,
  Post,
  PostCreatePayload,
  PostList,
  PostUpdatePayload,
  PreviewLink,
  Revision,
  RevisionPage,
  SeoSuggestion,
} from './types';

/** `new`: the autosaved copy of a post not created yet. */
export type AutosaveTarget = string;

type Schemas = components['schemas'];

export type PostStatusFilter = 'published' | 'draft' | 'all';
/** The list's filters: a status, or the posts waiting for review (`waiting`). */
export type PostListFilter = PostStatusFilter | 'waiting';

export const postsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPosts: build.query<PostList, { page: number; limit: number; status: PostListFilter }>({
      query: ({ status, ...params }) => ({
        url: 'posts',
        params: status === 'waiting' ? { ...params, status: 'all', review: 'waiting' } : { ...params, status },
      }),
      transformResponse: (r: Schemas['PostListOut']) => ({
        posts: r.posts,
        page: r.page,
        limit: r.limit,
        totalPosts: r.totalPosts,
        totalPages: r.pagination.totalPages,
      }),
      providesTags: (result) => [
        { type: 'Post' as const, id: 'LIST' },
        ...(result?.posts ?? []).map((p) => ({ type: 'Post' as const, id: p.id })),
      ],
    }),
    getPost: build.query<Post, string>({
      query: (id) => `posts/${id}`,
      transformResponse: (r: Schemas['PostReplyOut']) => r.post,
      providesTags: (result, _e, id) => [{ type: 'Post', id: result?.id ?? id }],
    }),
    getPostBySlug: build.query<Schemas['PostBySlugOut'], string>({
      query: (slug) => `posts/slug/${encodeURIComponent(slug)}`,
      providesTags: (result) => (result ? [{ type: 'Post', id: result.id }] : []),
    }),
    createPost: build.mutation<Schemas['PostSavedOut'], PostCreatePayload>({
      query: (body) => ({ url: 'posts/upload', method: 'POST', body }),
      invalidatesTags: [{ type: 'Post', id: 'LIST' }, 'Dashboard', 'Category', 'Tag', 'Search'],
    }),
    updatePost: build.mutation<Schemas['PostSavedOut'], { id: string; body: PostUpdatePayload }>({
      query: ({ id, body }) => ({ url: `posts/${id}`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { id }) => [
        { type: 'Post', id },
        { type: 'Post', id: 'LIST' },
        'Dashboard',
        'Category',
        'Tag',
        'Search',
      ],
    }),
    deletePost: build.mutation<Schemas['MessageOut'], string>({
      query: (id) => ({ url: `posts/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Post', id }, { type: 'Post', id: 'LIST' }, 'Dashboard', 'Category', 'Tag', 'Search'],
    }),
    requestReview: build.mutation<{ message?: string; post?: Post }, string>({
      query: (id) => ({ url: `posts/${id}/review/request`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Post', id }, { type: 'Post', id: 'LIST' }],
    }),
    returnReview: build.mutation<{ message?: string; post?: Post }, { id: string; note: string }>({
      query: ({ id, note }) => ({ url: `posts/${id}/review/return`, method: 'POST', body: { note } }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Post', id }, { type: 'Post', id: 'LIST' }],
    }),
    getRevisions: build.query<RevisionPage, { id: string; page: number; limit?: number }>({
      query: ({ id, page, limit = 20 }) => ({ url: `posts/${id}/revisions`, params: { page, limit } }),
      providesTags: (_r, _e, { id }) => [{ type: 'PostHistory', id }],
    }),
    getRevision: build.query<Revision, { id: string; revisionId: string }>({
      query: ({ id, revisionId }) => `posts/${id}/revisions/${revisionId}`,
      transformResponse: (r: { revision: Revision }) => r.revision,
      providesTags: (_r, _e, { id }) => [{ type: 'PostHistory', id }],
    }),
    restoreRevision: build.mutation<{ message?: string; post?: Post }, { id: string; revisionId: string }>({
      query: ({ id, revisionId }) => ({ url: `posts/${id}/revisions/${revisionId}/restore`, method: 'POST' }),
      invalidatesTags: (_r, _e, { id }) => [
        { type: 'Post', id },
        { type: 'Post', id: 'LIST' },
        { type: 'PostHistory', id },
        'Dashboard',
        'Search',
      ],
    }),
    getAutosave: build.query<Autosave | null, AutosaveTarget>({
      query: (id) => `posts/${id}/autosave`,
      transformResponse: (r: { autosave: Autosave | null }) => r.autosave,
      providesTags: (_r, _e, id) => [{ type: 'Autosave', id }],
    }),
    putAutosave: build.mutation<Autosave | null, { id: AutosaveTarget; fields: unknown; baseUpdatedAt?: string | null }>({
      query: ({ id, fields, baseUpdatedAt }) => ({
        url: `posts/${id}/autosave`,
        method: 'PUT',
        body: { fields, baseUpdatedAt: baseUpdatedAt ?? null },
      }),
      transformResponse: (r: { autosave: Autosave | null }) => r.autosave,
    }),
    deleteAutosave: build.mutation<{ message?: string }, AutosaveTarget>({
      query: (id) => ({ url: `posts/${id}/autosave`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Autosave', id }],
    }),
    getPreviewLinks: build.query<PreviewLink[], string>({
      query: (id) => `posts/${id}/preview-links`,
      transformResponse: (r: { links: PreviewLink[] }) => r.links,
      providesTags: (_r, _e, id) => [{ type: 'PreviewLink', id }],
    }),
    createPreviewLink: build.mutation<{ message?: string; link: PreviewLink }, string>({
      query: (id) => ({ url: `posts/${id}/preview-links`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'PreviewLink', id }],
    }),
    revokePreviewLink: build.mutation<{ message?: string; link: PreviewLink }, { id: string; linkId: string }>({
      query: ({ id, linkId }) => ({ url: `posts/${id}/preview-links/${linkId}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'PreviewLink', id }],
    }),
    generateSeo: build.mutation<AiReply<SeoSuggestion>, { title: string; content: string; excerpt: string }>({
      query: (body) => ({ url: 'ai/generate-seo', method: 'POST', body }),
    }),
  }),
});

export const {
  useGetPostsQuery,
  useGetPostQuery,
  useLazyGetPostQuery,
  useGetPostBySlugQuery,
  useCreatePostMutation,
  useUpdatePostMutation,
  useDeletePostMutation,
  useRequestReviewMutation,
  useReturnReviewMutation,
  useGenerateSeoMutation,
  useGetRevisionsQuery,
  useGetRevisionQuery,
  useRestoreRevisionMutation,
  useGetAutosaveQuery,
  usePutAutosaveMutation,
  useDeleteAutosaveMutation,
  useGetPreviewLinksQuery,
  useCreatePreviewLinkMutation,
  useRevokePreviewLinkMutation,
} = postsApi;
