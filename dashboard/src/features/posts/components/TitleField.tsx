import { useFormContext } from 'react-hook-form';
import { Field } from '@/components/ui';
import { slugify } from '@/lib/slug';
import type { PostFormValues } from '../schemas';

/** The post's title; leaving it fills an empty slug and SEO title from it. */
export function TitleField({ readOnly }: { readOnly: boolean }) {
  const {
    register,
    getValues,
    setValue,
    formState: { errors },
  } = useFormContext<PostFormValues>();
  const titleField = register('title');

  function onTitleBlur() {
    const title = getValues('title').trim();
    if (!title) return;
    if (!getValues('slug').trim()) setValue('slug', slugify(title));
    if (!getValues('seoTitle').trim()) setValue('seoTitle', title);
  }

  return (
    <fieldset className="fieldset-contents" disabled={readOnly}>
      <Field label="Title" htmlFor="title" error={errors.title?.message}>
        <input
          id="title"
          className="input"
          placeholder="Enter post title"
          aria-invalid={!!errors.title}
          style={{ fontSize: 18 }}
          {...titleField}
          onBlur={(e) => {
            void titleField.onBlur(e);
            onTitleBlur();
          }}
        />
      </Field>
    </fieldset>
  );
}
