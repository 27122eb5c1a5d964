import { useFormContext, useWatch } from 'react-hook-form';
import { bind, SelectField, type Option } from '@/components/form';
import { useKind } from '../kinds';
import type { PostFormValues } from '../schemas';

export const VISIBILITY_OPTIONS: Option[] = [
  { value: 'public', label: 'Everyone' },
  { value: 'members', label: 'Members only' },
];

/**
 * Who reads the post's body (docs/content.md#members-only-posts): everyone, or members only. A
 * members-only post is still listed with its title, excerpt and image; websites get its body with
 * a signed-in member's token. A field of the editor like the others: whoever may edit the post may
 * change it (read only otherwise, with the rest of the form).
 */
export function VisibilityField() {
  const kind = useKind();
  const form = useFormContext<PostFormValues>();
  const visibility = useWatch({ control: form.control, name: 'visibility' });
  return (
    <SelectField
      label="Visibility"
      options={VISIBILITY_OPTIONS}
      hint={
        visibility === 'members'
          ? `Everyone sees the title, excerpt and image; only signed-in members read the ${kind.noun}.`
          : `Everyone reads the ${kind.noun}.`
      }
      {...bind(form, 'visibility')}
    />
  );
}
