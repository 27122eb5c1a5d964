import { Controller, useFormContext } from 'react-hook-form';
import { RichTextEditor } from '@/components/editor/RichTextEditor';
import { Field } from '@/components/Field';
import { bind, TextAreaField } from '@/components/form';
import type { PostFormValues } from '../schemas';
import { useKind } from '../kinds';

/** The Content tab: the post's text (CKEditor, or the HTML when read only) and its excerpt. */
export function ContentSection({ readOnly }: { readOnly: boolean }) {
  const form = useFormContext<PostFormValues>();
  const kind = useKind();
  const { errors } = form.formState;
  const content = form.watch('content');
  return (
    <div className="stack" role="tabpanel" aria-label="Content">
      <fieldset className="fieldset-contents" disabled={readOnly}>
        <Field label="Content" error={errors.content?.message}>
          {readOnly ? (
            <div className="prose read-only-content" dangerouslySetInnerHTML={{ __html: content }} />
          ) : (
            <Controller
              control={form.control}
              name="content"
              render={({ field }) => <RichTextEditor value={field.value} onChange={field.onChange} invalid={!!errors.content} />}
            />
          )}
        </Field>
        <TextAreaField label="Excerpt" placeholder={`A short summary of the ${kind.noun}`} {...bind(form, 'excerpt')} />
      </fieldset>
    </div>
  );
}
