import { useEffect, useState } from 'react';
import { Controller, useFormContext } from 'react-hook-form';
import { ALL_TAGS, useCreateTermMutation, useGetCategoriesQuery, useGetTagsQuery, type Term, type TermKind } from '@/api/terms';
import { slugify } from '@/lib/slug';
import { useKind } from '../kinds';
import type { PostFormValues } from '../schemas';
import { TermMultiSelect } from './TermMultiSelect';

/** The names of `items` matching `names` (by name, any case, or by slug), as ids. */
function pick(names: string[], items: { id: string; name: string; slug: string }[]): string[] {
  return items
    .filter((i) => names.some((n) => n.toLowerCase() === i.name.toLowerCase() || slugify(n) === i.slug))
    .map((i) => String(i.id));
}

interface TermsFieldProps {
  kind: TermKind;
  name: 'categories' | 'tags';
  label: string;
  terms: Term[];
  loading: boolean;
  onRefresh: () => void;
  suggestions?: string[];
}

/** The post's categories or tags: pick, refresh, add new (a tag has no description). */
function TermsField({ kind, name, label, terms, loading, onRefresh, suggestions }: TermsFieldProps) {
  const { control, formState } = useFormContext<PostFormValues>();
  const [createTerm] = useCreateTermMutation();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <TermMultiSelect
          kind={kind}
          label={label}
          terms={terms}
          loading={loading}
          value={field.value}
          onChange={field.onChange}
          onRefresh={onRefresh}
          onCreate={async ({ name: termName, slug, description }) => {
            const body = kind === 'category' ? { name: termName, slug, description } : { name: termName, slug };
            return (await createTerm({ kind, body }).unwrap()).term;
          }}
          error={formState.errors[name]?.message}
          suggestions={suggestions}
        />
      )}
    />
  );
}

/** Categories and tags of the post (a page: tags only); AI suggestions are selected by name once
 * the lists are known. */
export function TaxonomyFields({ suggested }: { suggested?: { categories: string[]; tags: string[] } }) {
  const { setValue } = useFormContext<PostFormValues>();
  const kind = useKind();
  const categories = useGetCategoriesQuery(undefined, { skip: !kind.categories });
  const tags = useGetTagsQuery(ALL_TAGS);

  const [preselected, setPreselected] = useState(false);
  useEffect(() => {
    if (preselected || !suggested || !kind.categories || !categories.data || !tags.data) return;
    const cats = pick(suggested.categories, categories.data);
    const tgs = pick(suggested.tags, tags.data.tags);
    if (cats.length) setValue('categories', cats);
    if (tgs.length) setValue('tags', tgs);
    setPreselected(true);
  }, [preselected, suggested, kind.categories, categories.data, tags.data, setValue]);

  return (
    <section className="card card-body stack">
      {kind.categories ? (
        <TermsField
          kind="category"
          name="categories"
          label="Categories"
          terms={categories.data ?? []}
          loading={categories.isLoading}
          onRefresh={() => categories.refetch()}
          suggestions={suggested?.categories}
        />
      ) : null}
      <TermsField
        kind="tag"
        name="tags"
        label="Tags"
        terms={tags.data?.tags ?? []}
        loading={tags.isLoading}
        onRefresh={() => tags.refetch()}
        suggestions={suggested?.tags}
      />
    </section>
  );
}
