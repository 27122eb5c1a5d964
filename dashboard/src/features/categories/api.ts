import { api } from '@/lib/api';
import type { Category } from '@/lib/types';

type CategoryBody = { name: string; slug: string; description?: string };

export const categoriesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCategory: build.query<Category, string>({
      query: (id) => `categories/${id}`,
      transformResponse: (r: { category: Category }) => r.category,
      providesTags: (_r, _e, id) => [{ type: 'Category', id }],
    }),
    updateCategory: build.mutation<{ message?: string; category: Category }, { id: string; body: CategoryBody }>({
      query: ({ id, body }) => ({ url: `categories/${id}`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Category', id }, { type: 'Category', id: 'LIST' }, 'Search', 'Post'],
    }),
    deleteCategory: build.mutation<{ message?: string }, string>({
      query: (id) => ({ url: `categories/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Category', id }, { type: 'Category', id: 'LIST' }, 'Dashboard', 'Search'],
    }),
  }),
});

export const { useGetCategoryQuery, useUpdateCategoryMutation, useDeleteCategoryMutation } = categoriesApi;
