import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { useGetCategoriesQuery, useGetTagsQuery } from '@/api/terms';
import { TermList } from '../components/TermList';
import { CATEGORY, TAG } from '../kinds';

export const CATEGORIES_PAGE_SIZE = 5;
export const TAGS_PAGE_SIZE = 10;

/** Every category comes at once; the list shows five a page. */
export function CategoriesList() {
  const query = useGetCategoriesQuery();
  const [page, setPage] = useState(1);
  const all = query.data ?? [];
  const totalPages = Math.max(1, Math.ceil(all.length / CATEGORIES_PAGE_SIZE));
  const current = Math.min(page, totalPages);
  const rows = all.slice((current - 1) * CATEGORIES_PAGE_SIZE, current * CATEGORIES_PAGE_SIZE);
  return (
    <TermList
      screens={CATEGORY}
      list={{ query: { ...query, data: query.data && rows }, page: current, totalPages, onPage: setPage }}
    />
  );
}

/** Tags come a page at a time (`?page=`). */
export function TagsList() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const query = useGetTagsQuery({ page, limit: TAGS_PAGE_SIZE });
  const rows = query.data?.tags;
  const goTo = (p: number) => setParams(p > 1 ? { page: String(p) } : {});

  useEffect(() => {
    if (query.isError && TAG.loadFailedToast) toast.error(TAG.loadFailedToast);
  }, [query.isError]);

  return (
    <TermList
      screens={TAG}
      list={{
        query: { ...query, data: rows },
        page,
        totalPages: query.data?.pagination.totalPages ?? 1,
        onPage: goTo,
        dimmed: query.isFetching,
        // The list reloads; when the last tag of a page above 1 went, show the page before.
        afterDelete: () => {
          if (rows?.length === 1 && page > 1) goTo(page - 1);
        },
      }}
    />
  );
}
