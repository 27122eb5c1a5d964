import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { z } from 'zod';
import { useUpdateMediaMutation, type Media } from '@/api/media';
import { useOtherLanguages } from '@/api/translations';
import { Field } from '@/components/Field';
import { Spinner } from '@/components/Spinner';
import { toastError } from '@/components/notify';

/** As the server checks it (apps/media/schemas.py ALT_TEXT_MAX). */
const ALT_TEXT_MAX = 500;
const TOO_LONG = `Alt text must be at most ${ALT_TEXT_MAX} characters`;
const altText = z.string().max(ALT_TEXT_MAX, TOO_LONG);
const schema = z.object({ altText, altTexts: z.record(z.string(), altText) });
type Values = z.infer<typeof schema>;

const valuesOf = (media: Media): Values => ({ altText: media.altText ?? '', altTexts: { ...(media.altTexts ?? {}) } });

/** A media item's alt text: the default language's, and in a company with several languages one
 * per other language (websites get it with `?locale=`; an empty one falls back to the default's).
 * Read-only for those who may not edit the file (as the server decides: media.manage, or one's own
 * upload with media.edit_own). */
export function AltTextForm({ media, canEdit }: { media: Media; canEdit: boolean }) {
  const { others, defaultName } = useOtherLanguages();
  const [update] = useUpdateMediaMutation();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<Values>({ resolver: zodResolver(schema), defaultValues: valuesOf(media) });

  async function save(values: Values) {
    const altTexts: Record<string, string> = {};
    for (const { code } of others) {
      const text = values.altTexts[code]?.trim();
      if (text) altTexts[code] = text;
    }
    try {
      const reply = await update({
        id: media.id,
        altText: values.altText.trim(),
        ...(others.length > 0 ? { altTexts } : {}),
      }).unwrap();
      toast.success('Alt text saved');
      reset(valuesOf(reply.media));
    } catch (err) {
      toastError(err, 'Failed to save the alt text');
    }
  }

  const label = others.length > 0 ? `Alt text (${defaultName})` : 'Alt text';
  return (
    <form className="stack" style={{ gap: 10 }} noValidate onSubmit={handleSubmit(save)}>
      <Field label={label} htmlFor="media-alt" error={errors.altText?.message} hint="Describes the image to those who cannot see it">
        <input id="media-alt" className="input" readOnly={!canEdit} aria-invalid={!!errors.altText} {...register('altText')} />
      </Field>
      {others.map((language) => (
        <Field
          key={language.code}
          label={`Alt text in ${language.name} (${language.code})`}
          htmlFor={`media-alt-${language.code}`}
          error={errors.altTexts?.[language.code]?.message}
        >
          <input
            id={`media-alt-${language.code}`}
            className="input"
            lang={language.code}
            readOnly={!canEdit}
            aria-invalid={!!errors.altTexts?.[language.code]}
            {...register(`altTexts.${language.code}`)}
          />
        </Field>
      ))}
      {canEdit ? (
        <div className="row" style={{ justifyContent: 'flex-end' }}>
          <button type="submit" className="btn btn-primary btn-sm" disabled={isSubmitting || !isDirty}>
            {isSubmitting ? <Spinner small /> : null} Save alt text
          </button>
        </div>
      ) : null}
    </form>
  );
}
