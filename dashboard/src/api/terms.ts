import { api } from '@/lib/api';
import type { components } from '@/lib/api-types/dashboard';

type Schemas = components['schemas'];

/** Categories and tags: the same routes and replies under two names (one implementation, two
 * configurations, as on the server: apps/content/term_routes.py). */
export type Category = Schemas['CategoryOut'];
export type Tag = Schemas['TagOut'];
export type Term = Category | Tag;
export type TermKind = 'category' | 'tag';
export type TagList = Schemas['TagListOut'];

/** Its name and slug in another language (the server makes the slug from the name when empty). */
export interface TermTranslation {
  name: string;
  slug?: string;
}

/** A create or update: tags have no description. `translations`, when sent, replaces the term's
 * whole map (docs/translations.md); a company with one language never sends it. */
export interface TermBody {
  name: string;
  slug: string;
  description?: string;
  translations?: Record<string, TermTranslation>;
}

/** A saved term and the server's message. */
export interface TermSaved {
  message: string;
  term: Term;
}

const ROUTES = {
  category: { path: 'categories', tag: 'Category', key: 'category' },
  tag: { path: 'tags', tag: 'Tag', key: 'tag' },
} as const;

/** Every tag at once (the post form's checkboxes and the history's names). */
export const ALL_TAGS = { page: 1, limit: 1000 };

type Saved = Partial<Schemas['CategorySavedOut'] & Schemas['TagSavedOut']>;
const saved = (r: Saved): TermSaved => ({ message: r.message ?? '', term: (r.category ?? r.tag) as Term });
const itemTags = (kind: TermKind, id: string) => [
  { type: ROUTES[kind].tag, id },
  { type: ROUTES[kind].tag, id: 'LIST' },
];

export const termsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCategories: build.query<Category[], void>({
      query: () => 'categories',
      transformResponse: (r: Schemas['CategoryListOut']) => r.categories,
      providesTags: (result) => [
        { type: 'Category' as const, id: 'LIST' },
        ...(result ?? []).map((c) => ({ type: 'Category' as const, id: c.id })),
      ],
    }),
    getTags: build.query<TagList, { page?: number; limit?: number } | void>({
      query: (args) => ({ url: 'tags', params: { page: args?.page ?? 1, limit: args?.limit ?? 10 } }),
      providesTags: (result) => [
        { type: 'Tag' as const, id: 'LIST' },
        ...(result?.tags ?? []).map((t) => ({ type: 'Tag' as const, id: t.id })),
      ],
    }),
    getTerm: build.query<Term, { kind: TermKind; id: string }>({
      query: ({ kind, id }) => `${ROUTES[kind].path}/${id}`,
      transformResponse: (r: Partial<Schemas['CategoryReplyOut'] & Schemas['TagReplyOut']>) => (r.category ?? r.tag) as Term,
      providesTags: (_r, _e, { kind, id }) => [{ type: ROUTES[kind].tag, id }],
    }),
    createTerm: build.mutation<TermSaved, { kind: TermKind; body: TermBody }>({
      query: ({ kind, body }) => ({ url: `${ROUTES[kind].path}/add`, method: 'POST', body }),
      transformResponse: saved,
      invalidatesTags: (_r, _e, { kind }) => [{ type: ROUTES[kind].tag, id: 'LIST' }, 'Dashboard'],
    }),
    updateTerm: build.mutation<TermSaved, { kind: TermKind; id: string; body: TermBody }>({
      query: ({ kind, id, body }) => ({ url: `${ROUTES[kind].path}/${id}`, method: 'PUT', body }),
      transformResponse: saved,
      invalidatesTags: (_r, _e, { kind, id }) => [...itemTags(kind, id), 'Search', 'Post'],
    }),
    deleteTerm: build.mutation<Schemas['MessageOut'], { kind: TermKind; id: string }>({
      query: ({ kind, id }) => ({ url: `${ROUTES[kind].path}/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { kind, id }) => [...itemTags(kind, id), 'Dashboard', 'Search'],
    }),
  }),
});

export const {
  useGetCategoriesQuery,
  useGetTagsQuery,
  useGetTermQuery,
  useCreateTermMutation,
  useUpdateTermMutation,
  useDeleteTermMutation,
} = termsApi;
