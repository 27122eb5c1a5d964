import type { ReactNode } from 'react';
import { Controller, useFormContext } from 'react-hook-form';
import { bind, SelectField, TextField } from '@/components/form';
import type { PostFormValues } from '../schemas';
import type { StatusOption } from '../statuses';
import { FeaturedImageField } from './FeaturedImageField';
import { FeaturedToggle } from './FeaturedToggle';
import { TaxonomyFields } from './TaxonomyFields';
import { VisibilityField } from './VisibilityField';
import { YouTubeField } from './YouTubeField';

interface Props {
  readOnly: boolean;
  statusOptions: StatusOption[];
  suggested?: { categories: string[]; tags: string[] };
  /** More panels under the post's settings (history, preview links). */
  children?: ReactNode;
}

/** The editor's sidebar: status, publish date, who reads it and the featured mark, categories and tags, featured
 *  image and video. */
export function PostSidebar({ readOnly, statusOptions, suggested, children }: Props) {
  const form = useFormContext<PostFormValues>();
  const { control, formState } = form;
  return (
    <aside className="stack" style={{ gap: 16 }}>
      <fieldset className="fieldset-contents" disabled={readOnly}>
        <section className="card card-body stack">
          <SelectField label="Status" options={statusOptions} {...bind(form, 'status')} />
          <TextField label="Publish Date" type="date" {...bind(form, 'publishDate')} />
          <VisibilityField />
          <FeaturedToggle />
        </section>
        <TaxonomyFields suggested={suggested} />
        <section className="card card-body stack">
          <Controller
            control={control}
            name="featuredImage"
            render={({ field }) => (
              <FeaturedImageField value={field.value} onChange={field.onChange} error={formState.errors.featuredImage?.message} />
            )}
          />
          <Controller control={control} name="videoId" render={({ field }) => <YouTubeField value={field.value} onChange={field.onChange} />} />
        </section>
      </fieldset>
      {children}
    </aside>
  );
}
