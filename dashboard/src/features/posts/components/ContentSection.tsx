import { Controller, useFormContext } from 'react-hook-form';
import { RichTextEditor } from '@/components/editor/RichTextEditor';
import { Field } from '@/components/ui';
import type { PostFormValues } from '../schemas';

/** The Content tab: the post's text (CKEditor, or the HTML when read only) and its excerpt. */
export function ContentSection({ readOnly }: { readOnly: boolean }) {
  const {
    control,
    register,
    watch,
    formState: { errors },
  } = useFormContext<PostFormValues>();
  const content = watch('content');
  return (
    <div className="stack" role="tabpanel" aria-label="Content">
      <fieldset className="fieldset-contents" disabled={readOnly}>
        <Field label="Content" error={errors.content?.message}>
          {readOnly ? (
            <div className="prose read-only-content" dangerouslySetInnerHTML={{ __html: content }} />
          ) : (
            <Controller
              control={control}
              name="content"
              render={({ field }) => <RichTextEditor value={field.value} onChange={field.onChange} invalid={!!errors.content} />}
            />
          )}
        </Field>
        <Field label="Excerpt" htmlFor="excerpt" error={errors.excerpt?.message}>
          <textarea
            id="excerpt"
            className="textarea"
            placeholder="A short summary of the post"
            aria-invalid={!!errors.excerpt}
            {...register('excerpt')}
          />
        </Field>
      </fieldset>
    </div>
  );
}
