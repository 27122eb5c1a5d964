import { useRef } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { z } from 'zod';
import type { Language } from '@/api/translations';
import { Field } from '@/components/Field';
import { Spinner } from '@/components/Spinner';
import { nextAutoSlug } from '@/lib/slug';

const translation = z
  .object({ name: z.string(), slug: z.string() })
  .refine((t) => !t.slug.trim() || t.name.trim(), { message: 'Name is required when a slug is given', path: ['name'] });

export const termSchema = z.object({
  name: z.string().trim().min(1, 'Name is required'),
  slug: z.string().trim().min(1, 'Slug is required'),
  description: z.string(),
  /** Its name and slug per language (the company's other languages); empty names are not sent. */
  translations: z.record(z.string(), translation),
});
export type TermValues = z.infer<typeof termSchema>;

interface Props {
  defaultValues: TermValues;
  withDescription: boolean;
  /** The company's languages other than its default: a name and slug field for each. */
  languages: Language[];
  submitLabel: string;
  cancelTo: string;
  onSubmit: (values: TermValues) => Promise<void>;
}

/** Name, slug (follows the name until edited) and optional description: categories and tags. */
export function TermForm({ defaultValues, withDescription, languages, submitLabel, cancelTo, onSubmit }: Props) {
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
      {languages.length > 0 ? (
        <fieldset className="check-groups" data-testid="term-translations">
          <legend>Translations</legend>
          <p className="small muted" style={{ margin: 0 }}>
            The name and slug websites get with <code>?locale=</code>. Leave a name empty to use the one above; a slug
            left empty is made from the name.
          </p>
          {languages.map((language) => {
            const error = errors.translations?.[language.code];
            return (
              <div key={language.code} className="grid-2">
                <Field
                  label={`Name in ${language.name} (${language.code})`}
                  htmlFor={`term-name-${language.code}`}
                  error={error?.name?.message}
                >
                  <input
                    id={`term-name-${language.code}`}
                    className="input"
                    lang={language.code}
                    aria-invalid={!!error?.name}
                    {...register(`translations.${language.code}.name`)}
                  />
                </Field>
                <Field label={`Slug in ${language.name} (${language.code})`} htmlFor={`term-slug-${language.code}`}>
                  <input
                    id={`term-slug-${language.code}`}
                    className="input"
                    {...register(`translations.${language.code}.slug`)}
                  />
                </Field>
              </div>
            );
          })}
        </fieldset>
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
