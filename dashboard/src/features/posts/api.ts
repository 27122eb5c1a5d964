import { api } from '@/lib/api';
import type { AiReply } from '@/lib/aiApi';
import type {
  Autosave,
  Post,
  PostCreatePayload,
  PostList,
  PostSummary,
  PostUpdatePayload,
  PreviewLink,
  Revision,
  RevisionPage,
  SeoSuggestion,
} from './types';

/** `new`: the autosaved copy of a post not created yet. */
export type AutosaveTarget = string;

export type PostStatusFilter = 'published' | 'draft' | 'all';

export const postsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPosts: build.query<PostList, { page: number; limit: number; status: PostStatusFilter }>({
      query: (params) => ({ url: 'posts', params }),
      transformResponse: (r: {
        posts?: PostSummary[];
        page?: number;
        limit?: number;
        totalPosts?: number;
        pagination?: { totalPages?: number };
      }) => {
        const limit = r.limit ?? 10;
        const totalPosts = r.totalPosts ?? 0;
        return {
          posts: r.posts ?? [],
          page: r.page ?? 1,
          limit,
          totalPosts,
          totalPages: r.pagination?.totalPages ?? Math.max(1, Math.ceil(totalPosts / limit)),
        };
      },
      providesTags: (result) => [
        { type: 'Post' as const, id: 'LIST' },
        ...(result?.posts ?? []).map((p) => ({ type: 'Post' as const, id: p.id })),
      ],
    }),
    getPost: build.query<Post, string>({
      query: (id) => `posts/${id}`,
      transformResponse: (r: Post & { post?: Post }) => r.post ?? r,
      providesTags: (result, _e, id) => [{ type: 'Post', id: result?.id ?? id }],
    }),
    getPostBySlug: build.query<Post, string>({
      query: (slug) => `posts/slug/${encodeURIComponent(slug)}`,
      transformResponse: (r: Post & { post?: Post }) => r.post ?? r,
      providesTags: (result) => (result ? [{ type: 'Post', id: result.id }] : []),
    }),
    createPost: build.mutation<{ message?: string; post?: Post }, PostCreatePayload>({
      query: (body) => ({ url: 'posts/upload', method: 'POST', body }),
      invalidatesTags: [{ type: 'Post', id: 'LIST' }, 'Dashboard', 'Category', 'Tag', 'Search'],
    }),
    updatePost: build.mutation<{ message?: string; post?: Post }, { id: string; body: PostUpdatePayload }>({
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
    deletePost: build.mutation<{ message?: string }, string>({
      query: (id) => ({ url: `posts/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Post', id }, { type: 'Post', id: 'LIST' }, 'Dashboard', 'Category', 'Tag', 'Search'],
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
