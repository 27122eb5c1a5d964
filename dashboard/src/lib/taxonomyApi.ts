import { api } from './api';
import type { components } from './api-types/dashboard';
import type { Category } from './types';

type Schemas = components['schemas'];
/** Categories and tags endpoints shared by the post form and the categories/tags screens. */
export type TagList = Schemas['TagListOut'];

export const taxonomyApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCategories: build.query<Category[], void>({
      query: () => 'categories',
      transformResponse: (r: Schemas['CategoryListOut']) => r.categories,
      providesTags: (result) => [
        { type: 'Category' as const, id: 'LIST' },
        ...(result ?? []).map((c) => ({ type: 'Category' as const, id: c.id })),
      ],
    }),
    createCategory: build.mutation<Schemas['CategorySavedOut'], Schemas['CategoryIn']>({
      query: (body) => ({ url: 'categories/add', method: 'POST', body }),
      invalidatesTags: [{ type: 'Category', id: 'LIST' }, 'Dashboard'],
    }),
    getTags: build.query<TagList, { page?: number; limit?: number } | void>({
      query: (args) => ({ url: 'tags', params: { page: args?.page ?? 1, limit: args?.limit ?? 10 } }),
      providesTags: (result) => [
        { type: 'Tag' as const, id: 'LIST' },
        ...(result?.tags ?? []).map((t) => ({ type: 'Tag' as const, id: t.id })),
      ],
    }),
    createTag: build.mutation<Schemas['TagSavedOut'], Schemas['TagIn']>({
      query: (body) => ({ url: 'tags/add', method: 'POST', body }),
      invalidatesTags: [{ type: 'Tag', id: 'LIST' }, 'Dashboard'],
    }),
  }),
});

export const { useGetCategoriesQuery, useCreateCategoryMutation, useGetTagsQuery, useCreateTagMutation } =
  taxonomyApi;
