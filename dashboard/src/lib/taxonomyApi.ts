import { api } from './api';
import type { Category, Pagination, Tag } from './types';

/** Categories and tags endpoints shared by the post form and the categories/tags screens. */
export interface TagList {
  tags: Tag[];
  pagination: Pagination;
}

export const taxonomyApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCategories: build.query<Category[], void>({
      query: () => 'categories',
      transformResponse: (r: { categories?: Category[] }) => r.categories ?? [],
      providesTags: (result) => [
        { type: 'Category' as const, id: 'LIST' },
        ...(result ?? []).map((c) => ({ type: 'Category' as const, id: c.id })),
      ],
    }),
    createCategory: build.mutation<
      { message?: string; category: Category },
      { name: string; slug: string; description?: string }
    >({
      query: (body) => ({ url: 'categories/add', method: 'POST', body }),
      invalidatesTags: [{ type: 'Category', id: 'LIST' }, 'Dashboard'],
    }),
    getTags: build.query<TagList, { page?: number; limit?: number } | void>({
      query: (args) => ({ url: 'tags', params: { page: args?.page ?? 1, limit: args?.limit ?? 10 } }),
      transformResponse: (r: { tags?: Tag[]; pagination?: Pagination; total?: number } | Tag[]) => {
        if (Array.isArray(r)) {
          return { tags: r, pagination: { total: r.length, totalPages: 1, currentPage: 1, limit: r.length } };
        }
        const tags = r.tags ?? [];
        return {
          tags,
          pagination: r.pagination ?? {
            total: r.total ?? tags.length,
            totalPages: 1,
            currentPage: 1,
            limit: tags.length,
          },
        };
      },
      providesTags: (result) => [
        { type: 'Tag' as const, id: 'LIST' },
        ...(result?.tags ?? []).map((t) => ({ type: 'Tag' as const, id: t.id })),
      ],
    }),
    createTag: build.mutation<{ message?: string; tag: Tag }, { name: string; slug: string }>({
      query: (body) => ({ url: 'tags/add', method: 'POST', body }),
      transformResponse: (r: { message?: string; tag?: Tag; data?: Tag }) => ({
        message: r.message,
        tag: (r.tag ?? r.data) as Tag,
      }),
      invalidatesTags: [{ type: 'Tag', id: 'LIST' }, 'Dashboard'],
    }),
  }),
});

export const { useGetCategoriesQuery, useCreateCategoryMutation, useGetTagsQuery, useCreateTagMutation } =
  taxonomyApi;
