import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';

export type SearchType = 'posts' | 'categories' | 'tags';

type Schemas = components['schemas'];
export type SearchPostHit = Schemas['PostSummaryOut'];
export type SearchTermHit = Schemas['CategoryOut'] | Schemas['TagOut'];
export type SearchResults = Schemas['SearchResultsOut'];

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
      transformResponse: (r: Schemas['SearchOut']) => r.results,
      providesTags: ['Search'],
      keepUnusedDataFor: 30,
    }),
  }),
});

export const { useSearchQuery } = searchApi;
