import { z } from 'zod';
import { stripHtml } from '@/lib/format';

const featuredImage = z.object({ id: z.string(), url: z.string(), alt: z.string().optional() });

const canonicalUrl = z
  .string()
  .trim()
  .refine((v) => v === '' || z.url().safeParse(v).success, 'Please enter a valid URL');

/** True when the editor's HTML holds text or an image (an empty paragraph is no content). */
export function hasContent(html: string): boolean {
  return stripHtml(html).length > 0 || /<(img|iframe|video)\b/i.test(html);
}

const base = {
  title: z.string().trim().min(1, 'Title is required'),
  // 'review': a draft marked ready for review (writers who cannot publish)
  status: z.enum(['draft', 'published', 'archived', 'review']),
  tags: z.array(z.string()),
  slug: z.string(),
  focusKeyword: z.string(),
  canonicalUrl,
  publishDate: z.string(),
  videoId: z.string(),
  /** An editorial mark a website puts forward (docs/content.md#featured-posts). */
  featured: z.boolean(),
  /** Who reads the body: everyone, or members only (docs/content.md#members-only-posts). */
  visibility: z.enum(['public', 'members']),
};

export const createPostSchema = z.object({
  ...base,
  content: z.string().refine(hasContent, 'Content is required'),
  excerpt: z.string().trim().min(1, 'Excerpt is required'),
  categories: z.array(z.string()).min(1, 'At least one category is required'),
  featuredImage: featuredImage.nullable().refine((v) => v !== null, 'Featured image is required'),
  seoTitle: z.string().trim().min(1, 'SEO title is required'),
  seoDescription: z.string().trim().min(1, 'SEO description is required'),
});

/** A new page: as a post, without a category to choose. */
export const createPageSchema = createPostSchema.extend({ categories: z.array(z.string()) });

/** Editing requires only the title. */
export const editPostSchema = z.object({
  ...base,
  content: z.string(),
  excerpt: z.string(),
  categories: z.array(z.string()),
  featuredImage: featuredImage.nullable(),
  seoTitle: z.string(),
  seoDescription: z.string(),
});

export type PostFormValues = z.infer<typeof editPostSchema>;

/** Which tab of the form holds each field (to show the tab of the first error). */
export const FIELD_TAB: Record<keyof PostFormValues, 'content' | 'seo' | 'sidebar'> = {
  title: 'content',
  content: 'content',
  excerpt: 'content',
  status: 'sidebar',
  categories: 'sidebar',
  tags: 'sidebar',
  featuredImage: 'sidebar',
  publishDate: 'sidebar',
  videoId: 'sidebar',
  featured: 'sidebar',
  visibility: 'sidebar',
  slug: 'seo',
  seoTitle: 'seo',
  seoDescription: 'seo',
  focusKeyword: 'seo',
  canonicalUrl: 'seo',
};
