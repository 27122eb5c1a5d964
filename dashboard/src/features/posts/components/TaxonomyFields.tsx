import { useEffect, useState } from 'react';
import { Controller, useFormContext } from 'react-hook-form';
import { ALL_TAGS, useCreateTermMutation, useGetCategoriesQuery, useGetTagsQuery } from '@/api/terms';
import { slugify } from '@/lib/slug';
import type { PostFormValues } from '../schemas';
import { TermMultiSelect } from './TermMultiSelect';

/** The names of `items` matching `names` (by name, any case, or by slug), as ids. */
function pick(names: string[], items: { id: string; name: string; slug: string }[]): string[] {
  return items
    .filter((i) => names.some((n) => n.toLowerCase() === i.name.toLowerCase() || slugify(n) === i.slug))
    .map((i) => String(i.id));
}

/** The post's categories and tags: pick, refresh, add new; AI suggestions selected by name. */
export function TaxonomyFields({ suggested }: { suggested?: { categories: string[]; tags: string[] } }) {
  const {
    control,
    setValue,
    formState: { errors },
  } = useFormContext<PostFormValues>();
  const categories = useGetCategoriesQuery();
  const tags = useGetTagsQuery(ALL_TAGS);
  const [createTerm] = useCreateTermMutation();

  // Select AI-suggested categories and tags by name once the lists are known.
  const [preselected, setPreselected] = useState(false);
  useEffect(() => {
    if (preselected || !suggested || !categories.data || !tags.data) return;
    const cats = pick(suggested.categories, categories.data);
    const tgs = pick(suggested.tags, tags.data.tags);
    if (cats.length) setValue('categories', cats);
    if (tgs.length) setValue('tags', tgs);
    setPreselected(true);
  }, [preselected, suggested, categories.data, tags.data, setValue]);

  return (
    <section className="card card-body stack">
      <Controller
        control={control}
        name="categories"
        render={({ field }) => (
          <TermMultiSelect
            kind="category"
            label="Categories"
            terms={categories.data ?? []}
            loading={categories.isLoading}
            value={field.value}
            onChange={field.onChange}
            onRefresh={() => categories.refetch()}
            onCreate={async (input) => (await createTerm({ kind: 'category', body: input }).unwrap()).term}
            error={errors.categories?.message}
            suggestions={suggested?.categories}
          />
        )}
      />
      <Controller
        control={control}
        name="tags"
        render={({ field }) => (
          <TermMultiSelect
            kind="tag"
            label="Tags"
            terms={tags.data?.tags ?? []}
            loading={tags.isLoading}
            value={field.value}
            onChange={field.onChange}
            onRefresh={() => tags.refetch()}
            onCreate={async ({ name, slug }) => (await createTerm({ kind: 'tag', body: { name, slug } }).unwrap()).term}
            error={errors.tags?.message}
            suggestions={suggested?.tags}
          />
        )}
      />
    </section>
  );
}
