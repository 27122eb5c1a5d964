import type { Category, PostStatus, Tag } from '@/lib/types';

/** An image of a post: `link`/`cdnUrl` are absolute addresses, `spacesKey` the storage key. */
export interface PostImage {
  id: string;
  spacesKey?: string | null;
  altText?: string | null;
  link?: string | null;
  cdnUrl?: string | null;
}

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
  featuredImage?: PostImage | null;
  videoId?: string | null;
  isScheduled?: boolean;
  /** Set while the post waits for review (dashboard only). */
  reviewRequestedAt?: string | null;
  /** The editor's note when the post was sent back from review. */
  reviewNote?: string;
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
  ogImage?: PostImage | null;
  twitterImage?: PostImage | null;
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
}>;

export interface SeoSuggestion {
  metaTitle: string;
  metaDescription: string;
  keywords: string[] | string;
}
