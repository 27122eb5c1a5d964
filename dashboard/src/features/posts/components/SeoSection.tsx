import { useFormContext } from 'react-hook-form';
import { bind, TextAreaField, TextField } from '@/components/form';
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
  const form = useFormContext<PostFormValues>();
  const { getValues, setValue, watch } = form;
  const { errors } = form.formState;
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
        <TextField label="URL Slug" hint="Generated from the title when left empty" {...bind(form, 'slug')} />
        <TextField label="SEO Title" aside={<Counter value={watch('seoTitle') ?? ''} guide={SEO_TITLE_GUIDE} />} {...bind(form, 'seoTitle')} />
        <TextAreaField
          label="SEO Description"
          aside={<Counter value={watch('seoDescription') ?? ''} guide={SEO_DESCRIPTION_GUIDE} />}
          {...bind(form, 'seoDescription')}
        />
        <TextField label="Focus Keywords" hint="Separate keywords with commas" {...bind(form, 'focusKeyword')} />
        <TextField label="Canonical URL" type="url" placeholder="https://example.com/original-post" {...bind(form, 'canonicalUrl')} />
      </fieldset>
    </div>
  );
}
