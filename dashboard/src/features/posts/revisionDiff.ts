import { diffWords, type Change } from 'diff';
import type { Post } from '@/api/posts';
import { stripHtml } from '@/lib/format';
import type { PostFormValues } from './schemas';

/** A post's editable fields under their wire names (a revision's snapshot, a post, a form). */
export type Snapshot = Record<string, unknown>;

/** Texts compared word by word (content as the text a reader sees, tags stripped). */
const TEXT_FIELDS: [string, string][] = [
  ['title', 'Title'],
  ['excerpt', 'Excerpt'],
  ['content', 'Content'],
];

/** The rest, compared as whole values. */
const VALUE_FIELDS: [string, string][] = [
  ['status', 'Status'],
  ['isScheduled', 'Scheduled'],
  ['scheduledPublishDate', 'Publish date'],
  ['slug', 'Slug'],
  ['categories', 'Categories'],
  ['tags', 'Tags'],
  ['featuredImageId', 'Featured image'],
  ['videoId', 'YouTube video'],
  ['featured', 'Featured'],
  ['visibility', 'Visibility'],
  ['metaTitle', 'SEO title'],
  ['metaDescription', 'SEO description'],
  ['focusKeyword', 'Focus keywords'],
  ['canonicalUrl', 'Canonical URL'],
  ['allowIndexing', 'Allow indexing'],
  ['ogTitle', 'Open Graph title'],
  ['ogDescription', 'Open Graph description'],
  ['twitterTitle', 'Twitter title'],
  ['twitterDescription', 'Twitter description'],
];

/** A post's visibility in words, as the editor's Visibility control names it. */
const VISIBILITY_WORDS: Record<string, string> = { public: 'Everyone', members: 'Members only' };

export interface FieldDiff {
  field: string;
  label: string;
  /** Word changes (texts) or one removed and one added part (other values). */
  parts: Change[];
}

/** Names of categories and tags by id (snapshots keep ids). */
export type Names = Record<string, string>;

function show(value: unknown, names: Names, field = ''): string {
  if (value === null || value === undefined || value === '') return '';
  if (Array.isArray(value)) return value.map((v) => names[String(v)] ?? String(v)).sort().join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (field === 'visibility') return VISIBILITY_WORDS[String(value)] ?? String(value);
  return String(value);
}

function text(field: string, value: unknown): string {
  const raw = typeof value === 'string' ? value : '';
  return field === 'content' ? stripHtml(raw) : raw.trim();
}

/** The fields that differ between two versions of a post, in the order a reader looks at them;
 * fields one side does not have (e.g. a form has no Open Graph fields) are left out. */
export function compareSnapshots(before: Snapshot, after: Snapshot, names: Names = {}): FieldDiff[] {
  const out: FieldDiff[] = [];
  for (const [field, label] of TEXT_FIELDS) {
    if (!(field in before) || !(field in after)) continue;
    const a = text(field, before[field]);
    const b = text(field, after[field]);
    if (a !== b) out.push({ field, label, parts: diffWords(a, b) });
  }
  for (const [field, label] of VALUE_FIELDS) {
    if (!(field in before) || !(field in after)) continue;
    const a = show(before[field], names, field);
    const b = show(after[field], names, field);
    if (a === b) continue;
    const parts: Change[] = [];
    if (a) parts.push({ value: a, removed: true, added: false, count: 1 });
    if (b) parts.push({ value: b, added: true, removed: false, count: 1 });
    out.push({ field, label, parts });
  }
  return out;
}

/** The fields a save compares, of a post as the server has it. */
export function snapshotOfPost(post: Post): Snapshot {
  return {
    title: post.title ?? '',
    excerpt: post.excerpt ?? '',
    content: post.content ?? '',
    status: post.status,
    slug: post.slug ?? '',
    categories: (post.categories ?? []).map((c) => String(c.id)),
    tags: (post.tags ?? []).map((t) => String(t.id)),
    featuredImageId: post.featuredImage ? String(post.featuredImage.id) : null,
    videoId: post.videoId ?? '',
    featured: !!post.featured,
    visibility: post.visibility ?? 'public',
    metaTitle: post.metaTitle ?? '',
    metaDescription: post.metaDescription ?? '',
    focusKeyword: post.focusKeyword ?? '',
    canonicalUrl: post.canonicalUrl ?? '',
  };
}

/** The same fields, of what the editor has in the form. */
export function snapshotOfForm(values: PostFormValues, slug: string): Snapshot {
  return {
    title: values.title,
    excerpt: values.excerpt,
    content: values.content,
    status: values.status,
    slug: values.slug.trim() || slug,
    categories: values.categories,
    tags: values.tags,
    featuredImageId: values.featuredImage?.id ?? null,
    videoId: values.videoId,
    featured: values.featured,
    visibility: values.visibility,
    metaTitle: values.seoTitle,
    metaDescription: values.seoDescription,
    focusKeyword: values.focusKeyword,
    canonicalUrl: values.canonicalUrl,
  };
}
