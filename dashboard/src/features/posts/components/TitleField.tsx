import { useFormContext } from 'react-hook-form';
import { bind, TextField } from '@/components/form';
import { slugify } from '@/lib/slug';
import type { PostFormValues } from '../schemas';
import { useKind } from '../kinds';

/** The post's title; leaving it fills an empty slug and SEO title from it. */
export function TitleField({ readOnly }: { readOnly: boolean }) {
  const form = useFormContext<PostFormValues>();
  const kind = useKind();
  const { getValues, setValue } = form;
  const title = bind(form, 'title');

  function fillFromTitle() {
    const value = getValues('title').trim();
    if (!value) return;
    if (!getValues('slug').trim()) setValue('slug', slugify(value));
    if (!getValues('seoTitle').trim()) setValue('seoTitle', value);
  }

  return (
    <fieldset className="fieldset-contents" disabled={readOnly}>
      <TextField
        label="Title"
        placeholder={`Enter ${kind.noun} title`}
        style={{ fontSize: 18 }}
        {...title}
        field={{
          ...title.field,
          onBlur: (e) => {
            const blurred = title.field.onBlur(e);
            fillFromTitle();
            return blurred;
          },
        }}
      />
    </fieldset>
  );
}
