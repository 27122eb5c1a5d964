import { api } from '@/lib/api';

export type SearchType = 'posts' | 'categories' | 'tags';

export interface SearchPostHit {
  id: string;
  title: string;
  slug: string;
  excerpt?: string | null;
  status?: string | null;
  author?: { username?: string } | null;
  publishedAt?: string | null;
  createdAt?: string | null;
}

export interface SearchTermHit {
  id: string;
  name: string;
  slug: string;
  description?: string | null;
  postCount?: number;
}

export interface SearchResults {
  posts: SearchPostHit[];
  categories: SearchTermHit[];
  tags: SearchTermHit[];
}

export interface SearchArgs {
  q: string;
  types: SearchType[];
  status?: string;
  dateRange?: string;
}

export const searchApi = api.injectEndpoints({
  endpoints: (build) => ({
    search: build.query<SearchResults, SearchArgs>({
      query: ({ q, types, status, dateRange }) => ({
        url: 'search',
        params: {
          q,
          types: types.join(','),
          ...(status ? { status } : {}),
          ...(dateRange ? { dateRange } : {}),
        },
      }),
      transformResponse: (r: { results?: Partial<SearchResults> }) => ({
        posts: r.results?.posts ?? [],
        categories: r.results?.categories ?? [],
        tags: r.results?.tags ?? [],
      }),
      providesTags: ['Search'],
      keepUnusedDataFor: 30,
    }),
  }),
});

export const { useSearchQuery } = searchApi;
