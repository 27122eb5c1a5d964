import type { components } from '@/lib/api-types/dashboard';
import type { PostStatus } from '@/lib/types';

type Schemas = components['schemas'];

/** A post as listed and as read in full: aliases of the generated OpenAPI schemas. */
export type PostSummary = Schemas['DashboardPostSummaryOut'];
export type Post = Schemas['DashboardPostOut'];

/** An image of a post: `link`/`cdnUrl` are absolute addresses, `spacesKey` the storage key. */
export type PostImage = NonNullable<Post['featuredImage']>;

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
}>;

export interface SeoSuggestion {
  metaTitle: string;
  metaDescription: string;
  keywords: string[] | string;
}
