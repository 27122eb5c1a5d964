import { useRef } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { z } from 'zod';
import { Field } from '@/components/Field';
import { Spinner } from '@/components/Spinner';
import { nextAutoSlug } from '@/lib/slug';

export const termSchema = z.object({
  name: z.string().trim().min(1, 'Name is required'),
  slug: z.string().trim().min(1, 'Slug is required'),
  description: z.string(),
});
export type TermValues = z.infer<typeof termSchema>;

interface Props {
  defaultValues: TermValues;
  withDescription: boolean;
  submitLabel: string;
  cancelTo: string;
  onSubmit: (values: TermValues) => Promise<void>;
}

/** Name, slug (follows the name until edited) and optional description: categories and tags. */
export function TermForm({ defaultValues, withDescription, submitLabel, cancelTo, onSubmit }: Props) {
  const {
    register,
    handleSubmit,
    getValues,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<TermValues>({ resolver: zodResolver(termSchema), defaultValues });
  const lastName = useRef(defaultValues.name);
  const nameField = register('name');

  return (
    <form className="card card-body stack" style={{ maxWidth: 640 }} noValidate onSubmit={handleSubmit(onSubmit)}>
      <Field label="Name" htmlFor="term-name" error={errors.name?.message}>
        <input
          id="term-name"
          className="input"
          aria-invalid={!!errors.name}
          {...nameField}
          onChange={(e) => {
            void nameField.onChange(e);
            const slug = nextAutoSlug(lastName.current, e.target.value, getValues('slug'));
            lastName.current = e.target.value;
            setValue('slug', slug, { shouldValidate: !!errors.slug });
          }}
        />
      </Field>
      <Field label="Slug" htmlFor="term-slug" error={errors.slug?.message} hint="Used in URLs; generated from the name">
        <input id="term-slug" className="input" aria-invalid={!!errors.slug} {...register('slug')} />
      </Field>
      {withDescription ? (
        <Field label="Description (optional)" htmlFor="term-description">
          <textarea id="term-description" className="textarea" {...register('description')} />
        </Field>
      ) : null}
      <div className="row" style={{ justifyContent: 'flex-end' }}>
        <Link to={cancelTo} className="btn btn-secondary">
          Cancel
        </Link>
        <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
          {isSubmitting ? <Spinner small /> : null}
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
