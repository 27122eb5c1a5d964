import type { SearchResults, SearchType } from '@/api/search';

export type SearchVariant = 'all' | 'posts' | 'categories' | 'tags';

/** What each variant of the box searches. */
export const VARIANT_TYPES: Record<SearchVariant, SearchType[]> = {
  all: ['posts', 'categories', 'tags'],
  posts: ['posts'],
  categories: ['categories'],
  tags: ['tags'],
};

export const TYPE_LABELS: Record<SearchType, string> = { posts: 'Posts', categories: 'Categories', tags: 'Tags' };

export interface Filters {
  type: 'all' | SearchType;
  status: 'all' | 'published' | 'draft' | 'archived';
  dateRange: 'all' | 'week' | 'month' | 'year';
}

export const NO_FILTERS: Filters = { type: 'all', status: 'all', dateRange: 'all' };

/** One result as the list shows it, and where choosing it goes. */
export interface Row {
  key: string;
  kind: SearchType;
  title: string;
  excerpt?: string | null;
  status?: string | null;
  author?: string;
  date?: string | null;
  postCount?: number;
  to: string;
}

const TERM_ROUTES: ['categories' | 'tags', string][] = [
  ['categories', '/dashboard/categories/edit/'],
  ['tags', '/dashboard/tags/edit/'],
];

/** The results of the searched types, posts first. A post opens its page, or (in the posts list's
 * box) its editor; a category or tag opens its edit screen. */
export function toRows(data: SearchResults, types: SearchType[], variant: SearchVariant): Row[] {
  const out: Row[] = [];
  if (types.includes('posts')) {
    for (const p of data.posts) {
      out.push({
        key: `post-${p.id}`,
        kind: 'posts',
        title: p.title,
        excerpt: p.excerpt,
        status: p.status,
        author: p.author?.username,
        date: p.publishedAt || p.createdAt,
        to: variant === 'posts' ? `/dashboard/posts/edit/${p.id}` : `/dashboard/posts/${p.slug}`,
      });
    }
  }
  for (const [kind, base] of TERM_ROUTES) {
    if (!types.includes(kind)) continue;
    for (const t of data[kind]) {
      out.push({
        key: `${kind}-${t.id}`,
        kind,
        title: t.name,
        excerpt: 'description' in t ? t.description : undefined,
        postCount: t.postCount,
        to: `${base}${t.id}`,
      });
    }
  }
  return out;
}
