import { useFormContext } from 'react-hook-form';
import { Field } from '@/components/ui';
import type { PostFormValues } from '../schemas';
import { SeoGenerator } from './SeoGenerator';

export const SEO_TITLE_GUIDE = 60;
export const SEO_DESCRIPTION_GUIDE = 160;

/** Characters typed against the length search engines show. */
function Counter({ value, guide }: { value: string; guide: number }) {
  const over = value.length > guide;
  return (
    <span className={over ? 'counter over' : 'counter'} data-testid="counter">
      {value.length}/{guide}
    </span>
  );
}

/** The SEO tab: the AI generator, the URL slug, SEO title and description, keywords, canonical URL. */
export function SeoSection({ readOnly }: { readOnly: boolean }) {
  const {
    register,
    getValues,
    setValue,
    watch,
    formState: { errors },
  } = useFormContext<PostFormValues>();
  return (
    <div className="stack" role="tabpanel" aria-label="SEO">
      <fieldset className="fieldset-contents" disabled={readOnly}>
        {readOnly ? null : (
          <SeoGenerator
            getSource={() => ({ title: getValues('title'), content: getValues('content'), excerpt: getValues('excerpt') })}
            onApply={(r) => {
              setValue('seoTitle', r.metaTitle, { shouldValidate: !!errors.seoTitle });
              setValue('seoDescription', r.metaDescription, { shouldValidate: !!errors.seoDescription });
              setValue('focusKeyword', r.keywords);
            }}
          />
        )}
        <Field label="URL Slug" htmlFor="slug" hint="Generated from the title when left empty">
          <input id="slug" className="input" {...register('slug')} />
        </Field>
        <Field label="SEO Title" htmlFor="seoTitle" error={errors.seoTitle?.message} aside={<Counter value={watch('seoTitle') ?? ''} guide={SEO_TITLE_GUIDE} />}>
          <input id="seoTitle" className="input" aria-invalid={!!errors.seoTitle} {...register('seoTitle')} />
        </Field>
        <Field
          label="SEO Description"
          htmlFor="seoDescription"
          error={errors.seoDescription?.message}
          aside={<Counter value={watch('seoDescription') ?? ''} guide={SEO_DESCRIPTION_GUIDE} />}
        >
          <textarea id="seoDescription" className="textarea" aria-invalid={!!errors.seoDescription} {...register('seoDescription')} />
        </Field>
        <Field label="Focus Keywords" htmlFor="focusKeyword" hint="Separate keywords with commas">
          <input id="focusKeyword" className="input" {...register('focusKeyword')} />
        </Field>
        <Field label="Canonical URL" htmlFor="canonicalUrl" error={errors.canonicalUrl?.message}>
          <input
            id="canonicalUrl"
            className="input"
            type="url"
            placeholder="https://example.com/original-post"
            aria-invalid={!!errors.canonicalUrl}
            {...register('canonicalUrl')}
          />
        </Field>
      </fieldset>
    </div>
  );
}
