import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';
import type { AiReply } from '@/lib/aiApi';
import type { Post, PostCreatePayload, PostList, PostUpdatePayload, SeoSuggestion } from './types';

type Schemas = components['schemas'];

export type PostStatusFilter = 'published' | 'draft' | 'all';

export const postsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPosts: build.query<PostList, { page: number; limit: number; status: PostStatusFilter }>({
      query: (params) => ({ url: 'posts', params }),
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
  useGenerateSeoMutation,
} = postsApi;
