import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';
import type { AiReply } from '@/lib/aiApi';
import type { Post, PostCreatePayload, PostList, PostUpdatePayload, SeoSuggestion } from './types';

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
