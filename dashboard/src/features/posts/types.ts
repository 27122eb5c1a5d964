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
  /** The post's updatedAt when the editor opened it: a save from an older copy is refused (409). */
  baseUpdatedAt: string;
}>;

export interface SeoSuggestion {
  metaTitle: string;
  metaDescription: string;
  keywords: string[] | string;
}

export interface RevisionSummary {
  id: string;
  number: number;
  action: string;
  published: boolean;
  author: { id: string; username: string } | null;
  createdAt: string;
}

export interface Revision extends RevisionSummary {
  /** The post's editable fields as this save left them (wire names; categories and tags as ids). */
  snapshot: Record<string, unknown>;
}

export interface RevisionPage {
  revisions: RevisionSummary[];
  pagination: { total: number; totalPages: number; currentPage: number; limit: number };
}

export interface Autosave<F = Record<string, unknown>> {
  fields: F;
  baseUpdatedAt: string | null;
  updatedAt: string;
}

export interface PreviewLink {
  id: string;
  status: 'active' | 'expired' | 'revoked';
  token: string | null;
  url: string | null;
  createdBy: { id: string; username: string } | null;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
}
