/**
 * The `data` of the public API's replies (API.md). openapi/public.json documents the paths,
 * parameters and the error envelope, but not these success bodies (the public handlers answer
 * from a cache as raw JSON, without a ninja response schema), so they are written here, checked
 * against the real server by test/live.test.ts. When the document gains reply schemas, these
 * become aliases of `components['schemas']` like the rest.
 */
export interface TermRef {
  id: string;
  name: string;
  slug: string;
}

export interface FeaturedImage {
  id: string;
  spacesKey: string;
  altText: string;
  link: string | null;
}

export type PostStatus = 'draft' | 'published' | 'archived';

export interface PostSummary {
  id: string;
  title: string;
  slug: string;
  excerpt: string;
  status: PostStatus;
  createdAt: string;
  publishedAt: string | null;
  author: { id: string; username: string } | null;
  categories: TermRef[];
  tags: TermRef[];
  featuredImage: FeaturedImage | null;
  videoId: string | null;
  isScheduled: boolean;
}

export interface Post extends PostSummary {
  content: string;
  customSlug: string;
  allowIndexing: boolean;
  scheduledPublishDate: string | null;
  metaTitle: string;
  metaDescription: string;
  canonicalUrl: string;
  focusKeyword: string;
  ogTitle: string;
  ogDescription: string;
  ogImageId: string | null;
  twitterTitle: string;
  twitterDescription: string;
  twitterImageId: string | null;
  updatedAt: string;
}

export interface Pagination {
  total: number;
  totalPages: number;
  currentPage: number;
  limit: number;
}

export interface PostsPage {
  posts: PostSummary[];
  pagination: Pagination;
}

export interface PostData {
  post: Post;
}

export interface Category extends TermRef {
  description: string;
  postCount: number;
}

export interface Tag extends TermRef {
  postCount: number;
}

export interface CategoriesData {
  categories: Category[];
}

export interface TagsData {
  tags: Tag[];
}
