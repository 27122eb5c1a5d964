import type { Category, PostStatus, Tag } from '@/lib/types';

export interface PostSummary {
  id: string;
  title: string;
  slug: string;
  excerpt?: string | null;
  status: PostStatus;
  createdAt?: string | null;
  publishedAt?: string | null;
  author?: { id?: string; username?: string } | null;
  categories?: Pick<Category, 'id' | 'name' | 'slug'>[];
  tags?: Pick<Tag, 'id' | 'name' | 'slug'>[];
  featuredImage?: { id: string; spacesKey?: string | null; altText?: string | null; link?: string | null } | null;
  videoId?: string | null;
}

export interface Post extends PostSummary {
  content: string;
  customSlug?: string | null;
  allowIndexing?: boolean;
  scheduledPublishDate?: string | null;
  metaTitle?: string | null;
  metaDescription?: string | null;
  canonicalUrl?: string | null;
  focusKeyword?: string | null;
  updatedAt?: string | null;
}

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
