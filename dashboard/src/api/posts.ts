import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';

type Schemas = components['schemas'];

/**
 * The API's collections of content rows: posts and pages are kinds of one content model with the
 * same shapes (apps.content.kinds), under `/api/posts` and `/api/pages`.
 */
export type ContentCollection = 'posts' | 'pages';

/** A row of content: a post's id, or the id of a row of a given collection. */
export type ContentRef = string | { kind: ContentCollection; id: string };

export function refOf(ref: ContentRef): { kind: ContentCollection; id: string } {
  return typeof ref === 'string' ? { kind: 'posts', id: ref } : ref;
}

/** A row's address under the API (`posts/<id>`, `pages/<id>`). */
export function rowPath(ref: ContentRef): string {
  const { kind, id } = refOf(ref);
  return `${kind}/${id}`;
}

/** A post (or page) as listed and as read in full: aliases of the generated OpenAPI schemas. */
export type PostSummary = Schemas['DashboardPostSummaryOut'];
export type Post = Schemas['DashboardPostOut'];
export type PostBySlug = Schemas['PostBySlugOut'];

/** An image of a post: `link`/`cdnUrl` are absolute addresses, `spacesKey` the storage key. */
export type PostImage = NonNullable<Post['featuredImage']>;
export type PostStatus = Post['status'];
/** Who reads a post's body: everyone (`public`), or members only (docs/content.md#members-only-posts). */
export type PostVisibility = Post['visibility'];

export interface PostList {
  posts: PostSummary[];
  page: number;
  limit: number;
  totalPosts: number;
  totalPages: number;
}

export interface PostCreatePayload {
  postTitle: string;
  postContent: string;
  postExcerpt: string;
  customSlug: string;
  postStatus: PostStatus;
  categories: string[];
  tags: string[];
  featuredMediaId: string;
  allowIndexing: boolean;
  scheduledPublishDate?: string;
  /** Featured (false when left out). */
  featured?: boolean;
  /** Who reads the body: `members` for members only (`public`, everyone, when left out). */
  visibility?: PostVisibility;
  videoId: string;
  seoMetadata: { title: string; description: string; canonicalUrl: string; focusKeyword: string };
}

export type PostUpdatePayload = Partial<{
  title: string;
  content: string;
  excerpt: string;
  customSlug: string;
  status: PostStatus;
  allowIndexing: boolean;
  scheduledPublishDate: string;
  videoId: string;
  categories: string[];
  tags: string[];
  featuredImage: string;
  metaTitle: string;
  metaDescription: string;
  canonicalUrl: string;
  focusKeyword: string;
  /** Feature the post, or no longer (left out: kept as it is). */
  featured: boolean;
  /** Everyone, or members only (left out: kept as it is). */
  visibility: PostVisibility;
  /** The post's updatedAt when the editor opened it: a save from an older copy is refused (409). */
  baseUpdatedAt: string;
}>;

/** Deleting a post in the company's default language that has translations needs to say what
 * becomes of them (else 409 `translations_exist`): delete them too, or promote one language's
 * translation to be the main post. */
export interface PostDeleteArgs {
  id: string;
  kind?: ContentCollection;
  translations?: 'delete';
  promote?: string;
}

export type PostStatusFilter = 'published' | 'draft' | 'all';
/** The list's filters: a status, or the posts waiting for review (`waiting`). */
export type PostListFilter = PostStatusFilter | 'waiting';

/** What a change to posts makes stale besides the post itself. */
const POST_WIDE = ['Dashboard', 'Category', 'Tag', 'Search'] as const;
const one = (id: string) => [{ type: 'Post' as const, id }, { type: 'Post' as const, id: 'LIST' }];

/** Posts: the list, one post (by id or slug), create, update, delete, and the review requests. */
export const postsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPosts: build.query<
      PostList,
      {
        page: number;
        limit: number;
        status: PostListFilter;
        language?: string;
        missing?: string;
        /** Over title and content (the list's own search: pages are not in the dashboard's search). */
        search?: string;
        kind?: ContentCollection;
      }
    >({
      query: ({ status, language, missing, search, kind = 'posts', ...params }) => ({
        url: kind,
        params: {
          ...(status === 'waiting' ? { ...params, status: 'all', review: 'waiting' } : { ...params, status }),
          ...(language ? { language } : {}),
          ...(missing ? { missing } : {}),
          ...(search ? { search } : {}),
        },
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
    getPost: build.query<Post, ContentRef>({
      query: (ref) => rowPath(ref),
      transformResponse: (r: Schemas['PostReplyOut']) => r.post,
      providesTags: (result, _e, ref) => [{ type: 'Post', id: result?.id ?? refOf(ref).id }],
    }),
    getPostBySlug: build.query<PostBySlug, string>({
      query: (slug) => `posts/slug/${encodeURIComponent(slug)}`,
      providesTags: (result) => (result ? [{ type: 'Post', id: result.id }] : []),
    }),
    createPost: build.mutation<Schemas['PostSavedOut'], PostCreatePayload & { kind?: ContentCollection }>({
      query: ({ kind = 'posts', ...body }) => ({ url: `${kind}/upload`, method: 'POST', body }),
      invalidatesTags: [{ type: 'Post', id: 'LIST' }, ...POST_WIDE],
    }),
    updatePost: build.mutation<Schemas['PostSavedOut'], { id: string; body: PostUpdatePayload; kind?: ContentCollection }>({
      query: ({ id, body, kind = 'posts' }) => ({ url: rowPath({ kind, id }), method: 'PUT', body }),
      invalidatesTags: (_r, _e, { id }) => [...one(id), ...POST_WIDE],
    }),
    deletePost: build.mutation<Schemas['MessageOut'], PostDeleteArgs>({
      query: ({ id, kind = 'posts', translations, promote }) => ({
        url: rowPath({ kind, id }),
        method: 'DELETE',
        params: { ...(translations ? { translations } : {}), ...(promote ? { promote } : {}) },
      }),
      invalidatesTags: (_r, _e, { id }) => [...one(id), ...POST_WIDE],
    }),
    requestReview: build.mutation<Schemas['PostSavedOut'], ContentRef>({
      query: (ref) => ({ url: `${rowPath(ref)}/review/request`, method: 'POST' }),
      invalidatesTags: (_r, _e, ref) => one(refOf(ref).id),
    }),
    returnReview: build.mutation<Schemas['PostSavedOut'], { id: string; note: string; kind?: ContentCollection }>({
      query: ({ id, note, kind = 'posts' }) => ({ url: `${rowPath({ kind, id })}/review/return`, method: 'POST', body: { note } }),
      invalidatesTags: (_r, _e, { id }) => one(id),
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
} = postsApi;
