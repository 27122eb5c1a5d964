import { api } from '@/lib/api';
import type { AiReply } from '@/lib/aiApi';
import type { Post, PostCreatePayload, PostList, PostSummary, PostUpdatePayload, SeoSuggestion } from './types';

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
    requestReview: build.mutation<{ message?: string; post?: Post }, string>({
      query: (id) => ({ url: `posts/${id}/review/request`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Post', id }, { type: 'Post', id: 'LIST' }],
    }),
    returnReview: build.mutation<{ message?: string; post?: Post }, { id: string; note: string }>({
      query: ({ id, note }) => ({ url: `posts/${id}/review/return`, method: 'POST', body: { note } }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Post', id }, { type: 'Post', id: 'LIST' }],
    }),
    generateSeo: build.mutation<AiReply<SeoSuggestion>, { title: string; content: string; excerpt: string }>({
      query: (body) => ({ url: 'ai/generate-seo', method: 'POST', body }),
    }),
  }),
});

export const {
  useGetPostsQuery,
  useGetPostQuery,
  useGetPostBySlugQuery,
  useCreatePostMutation,
  useUpdatePostMutation,
  useDeletePostMutation,
  useRequestReviewMutation,
  useReturnReviewMutation,
  useGenerateSeoMutation,
} = postsApi;
