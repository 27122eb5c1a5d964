import type { Post, PostCreatePayload, PostUpdatePayload } from '@/api/posts';
import { slugify } from '@/lib/slug';
import type { PostFormValues } from './schemas';

/**
 * The publish date as the server's schedule: nothing for today or an earlier day (publish
 * now), and local midnight of a later day as an ISO instant. A bare date would be read as
 * midnight UTC, which schedules "today" for hours for anyone east of UTC.
 */
export function scheduleFor(date: string, now: Date = new Date()): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
  const pad = (n: number) => String(n).padStart(2, '0');
  const today = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  if (date <= today) return undefined;
  const [year, month, day] = date.split('-').map(Number);
  return new Date(year, month - 1, day).toISOString();
}

export function toCreatePayload(v: PostFormValues): PostCreatePayload {
  const title = v.title.trim();
  const excerpt = v.excerpt.trim();
  const schedule = scheduleFor(v.publishDate);
  return {
    postTitle: title,
    postContent: v.content,
    postExcerpt: excerpt,
    customSlug: v.slug.trim() || slugify(title),
    postStatus: savedStatus(v.status),
    categories: v.categories,
    tags: v.tags,
    featuredMediaId: v.featuredImage?.id ?? '',
    allowIndexing: true,
    ...(schedule ? { scheduledPublishDate: schedule } : {}),
    // Left out, a new post is not featured, and everyone reads it.
    ...(v.featured ? { featured: true } : {}),
    ...(v.visibility === 'members' ? { visibility: 'members' as const } : {}),
    videoId: v.videoId,
    seoMetadata: {
      title: v.seoTitle.trim() || title,
      description: v.seoDescription.trim() || excerpt,
      canonicalUrl: v.canonicalUrl.trim(),
      focusKeyword: v.focusKeyword.trim(),
    },
  };
}

/** Only non-empty trimmed values; categories and tags only when non-empty; the image only when set. */
export function toUpdatePayload(v: PostFormValues): PostUpdatePayload {
  const out: PostUpdatePayload = {};
  const put = <K extends keyof PostUpdatePayload>(key: K, value: string) => {
    const t = value.trim();
    if (t) (out as Record<string, unknown>)[key] = t;
  };
  put('title', v.title);
  if (v.content.trim()) out.content = v.content;
  put('excerpt', v.excerpt);
  put('customSlug', v.slug);
  out.status = savedStatus(v.status);
  const schedule = scheduleFor(v.publishDate);
  if (schedule) out.scheduledPublishDate = schedule;
  put('videoId', v.videoId);
  if (v.categories.length) out.categories = v.categories;
  if (v.tags.length) out.tags = v.tags;
  if (v.featuredImage?.id) out.featuredImage = v.featuredImage.id;
  put('metaTitle', v.seoTitle);
  put('metaDescription', v.seoDescription);
  put('canonicalUrl', v.canonicalUrl);
  put('focusKeyword', v.focusKeyword);
  return out;
}

export function toFormValues(post: Post): PostFormValues {
  return {
    title: post.title ?? '',
    content: post.content ?? '',
    excerpt: post.excerpt ?? '',
    status: post.status ?? 'draft',
    categories: (post.categories ?? []).map((c) => String(c.id)),
    tags: (post.tags ?? []).map((t) => String(t.id)),
    featuredImage: post.featuredImage
      ? {
          id: String(post.featuredImage.id),
          url: post.featuredImage.link ?? '',
          alt: post.featuredImage.altText ?? undefined,
        }
      : null,
    slug: post.customSlug || post.slug || '',
    seoTitle: post.metaTitle ?? '',
    seoDescription: post.metaDescription ?? '',
    focusKeyword: post.focusKeyword ?? '',
    canonicalUrl: post.canonicalUrl ?? '',
    publishDate: (post.scheduledPublishDate || post.publishedAt || post.createdAt || '').slice(0, 10),
    videoId: post.videoId ?? '',
    featured: !!post.featured,
    visibility: post.visibility === 'members' ? 'members' : 'public',
  };
}

/** Spec §5: a failed save shows a friendlier text depending on what the server's message names. */
export function rewriteSaveError(message: string): string {
  const m = message.toLowerCase();
  if (m.includes('validation')) return 'Please check that all required fields are filled correctly';
  if (m.includes('categories')) return 'Please check your category selections';
  if (m.includes('tags')) return 'Please check your tag selections';
  if (m.includes('featured')) return 'Please select a valid featured image';
  return message;
}

/** Server field names (create or update payload) mapped to the form's fields. */
export const SERVER_FIELD: Record<string, keyof PostFormValues> = {
  postTitle: 'title',
  title: 'title',
  postContent: 'content',
  content: 'content',
  postExcerpt: 'excerpt',
  excerpt: 'excerpt',
  postStatus: 'status',
  status: 'status',
  categories: 'categories',
  tags: 'tags',
  featuredMediaId: 'featuredImage',
  featuredImage: 'featuredImage',
  customSlug: 'slug',
  scheduledPublishDate: 'publishDate',
  videoId: 'videoId',
  featured: 'featured',
  visibility: 'visibility',
  'seoMetadata.title': 'seoTitle',
  metaTitle: 'seoTitle',
  'seoMetadata.description': 'seoDescription',
  metaDescription: 'seoDescription',
  'seoMetadata.canonicalUrl': 'canonicalUrl',
  canonicalUrl: 'canonicalUrl',
  'seoMetadata.focusKeyword': 'focusKeyword',
  focusKeyword: 'focusKeyword',
};

/** Spec §8: the text shown when deleting a post fails, and whether the list should refresh. */
export function deleteErrorMessage(
  status: number | string | undefined,
  message: string,
  noun = 'post',
): { text: string; refresh: boolean } {
  if (message.includes(`Cannot delete ${noun}`)) return { text: message, refresh: false };
  if (status === 403 || /forbidden/i.test(message)) {
    return { text: `You don't have permission to delete this ${noun}`, refresh: false };
  }
  if (status === 404 || /not found/i.test(message)) return { text: `This ${noun} no longer exists`, refresh: true };
  return { text: `Failed to delete ${noun}. Please try again.`, refresh: false };
}

/** The status the server stores: a post submitted for review is saved as a draft, then flagged. */
export function savedStatus(status: PostFormValues['status']): Exclude<PostFormValues['status'], 'review'> {
  return status === 'review' ? 'draft' : status;
}

/** The list (posts by default, or `list`: the pages') filtered so that a just-saved row with this
 * status is on it. */
export function listPathFor(status: PostFormValues['status'], list = '/dashboard/posts'): string {
  return status === 'published'
    ? list
    : status === 'draft' || status === 'review'
      ? `${list}?status=draft`
      : `${list}?status=all`;
}
