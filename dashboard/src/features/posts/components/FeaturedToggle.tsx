import { useId } from 'react';
import { Controller, useFormContext } from 'react-hook-form';
import { Star } from 'lucide-react';
import { useKind } from '../kinds';
import type { PostFormValues } from '../schemas';

/**
 * "Feature this post": a toggle button (pressed while featured) with a filled star. It is a field of
 * the editor like the others: whoever may edit the post may feature it (read only otherwise, with
 * the rest of the form).
 */
export function FeaturedToggle() {
  const kind = useKind();
  const { control } = useFormContext<PostFormValues>();
  const hintId = useId();
  return (
    <Controller
      control={control}
      name="featured"
      render={({ field }) => (
        <div className="stack" style={{ gap: 4 }}>
          <button
            ref={field.ref}
            type="button"
            className="btn btn-secondary feature-toggle"
            aria-pressed={field.value}
            aria-describedby={hintId}
            onClick={() => field.onChange(!field.value)}
            onBlur={field.onBlur}
          >
            <Star size={16} aria-hidden="true" fill={field.value ? 'currentColor' : 'none'} />
            Feature this {kind.noun}
          </button>
          <p id={hintId} className="small muted" style={{ margin: 0 }}>
            {field.value
              ? `Featured: websites that ask for featured ${kind.plural} list it.`
              : `Websites can put featured ${kind.plural} forward (a home page strip, a badge).`}
          </p>
        </div>
      )}
    />
  );
}
