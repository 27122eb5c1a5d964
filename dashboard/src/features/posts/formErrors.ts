import type { FieldErrors, UseFormSetError } from 'react-hook-form';
import type { FieldError } from '@/lib/errors';
import { SERVER_FIELD } from './payload';
import { FIELD_TAB, type PostFormValues } from './schemas';

/** Apply server field errors (errors[] of the envelope) to the form; returns the fields set. */
export function applyServerErrors(
  errors: FieldError[] | undefined,
  setError: UseFormSetError<PostFormValues>,
): (keyof PostFormValues)[] {
  const applied: (keyof PostFormValues)[] = [];
  for (const e of errors ?? []) {
    const field = SERVER_FIELD[e.field];
    if (field) {
      setError(field, { message: e.message });
      applied.push(field);
    }
  }
  return applied;
}

/** The tab that holds the first field to correct (fields of the sidebar have none). */
export function tabOfFirstError(errors: FieldErrors<PostFormValues>): 'content' | 'seo' | undefined {
  const first = (Object.keys(FIELD_TAB) as (keyof PostFormValues)[]).find((k) => errors[k]);
  const tab = first ? FIELD_TAB[first] : undefined;
  return tab === 'content' || tab === 'seo' ? tab : undefined;
}

/** The first field to correct gets focus, once the tab holding it is shown. */
export function focusFirstError(form: () => HTMLFormElement | null) {
  requestAnimationFrame(() => {
    const element = form();
    if (!element) return;
    // In document order: an invalid control, or the message under a field that has none.
    const first = element.querySelector<HTMLElement>('[aria-invalid="true"], .field-error');
    const field = first?.classList.contains('field-error') ? first.closest('.field') : null;
    const target = field
      ? field.querySelector<HTMLElement>('[contenteditable="true"], input:not([type=hidden]), textarea, select') ??
        field.querySelector<HTMLElement>('button')
      : first;
    if (!target) return;
    target.focus();
    target.scrollIntoView?.({ block: 'center' });
  });
}
