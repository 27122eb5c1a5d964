import { useMemo } from 'react';
import { ALL_TAGS, useGetCategoriesQuery, useGetTagsQuery } from '@/api/terms';
import type { Names } from '../revisionDiff';

/** Every category's and tag's name by id (to show saved ids as names in comparisons). */
export function useTermNames(): Names {
  const categories = useGetCategoriesQuery();
  const tags = useGetTagsQuery(ALL_TAGS);
  return useMemo(() => {
    const names: Names = {};
    for (const c of categories.data ?? []) names[String(c.id)] = c.name;
    for (const t of tags.data?.tags ?? []) names[String(t.id)] = t.name;
    return names;
  }, [categories.data, tags.data]);
}
