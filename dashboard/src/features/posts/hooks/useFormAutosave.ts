import { useCallback, useEffect, useRef } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { ContentRef } from '@/api/posts';
import type { PostFormValues } from '../schemas';
import { useAutosave } from '../useAutosave';

interface Options {
  /** The post's id (`new` before it exists) and its updatedAt when opened; none: no copy. */
  autosave?: { target: ContentRef; baseUpdatedAt?: string | null };
  readOnly: boolean;
  defaultValues: PostFormValues;
}

/**
 * The post form's draft copy while typing (kept on the server), and whether leaving now would
 * lose changes. `saveWith(save, stillShown)` runs a save: the copy stops meanwhile (a save clears
 * it on the server, nothing may recreate it) and follows the form again when the save was refused.
 */
export function useFormAutosave(form: UseFormReturn<PostFormValues>, { autosave, readOnly, defaultValues }: Options) {
  const autosaving = !!autosave && !readOnly;
  const autosaver = useAutosave<PostFormValues>({
    target: autosave?.target ?? 'new',
    baseUpdatedAt: autosave?.baseUpdatedAt,
    enabled: autosaving,
  });
  const { changed } = autosaver;
  const { watch, getValues } = form;
  const dirtyRef = useRef(false);
  dirtyRef.current = form.formState.isDirty;
  const savingRef = useRef(false);
  const leaving = useCallback(() => !readOnly && dirtyRef.current && !savingRef.current, [readOnly]);

  useEffect(() => {
    if (!autosaving) return undefined;
    const start = JSON.stringify(defaultValues);
    const subscription = watch((values) => {
      if (JSON.stringify(values) !== start) changed(values as PostFormValues);
    });
    return () => subscription.unsubscribe();
  }, [autosaving, watch, changed, defaultValues]);

  async function saveWith<T>(save: () => Promise<T>, stillShown: () => boolean): Promise<T> {
    savingRef.current = true;
    autosaver.stop();
    let result: T;
    try {
      result = await save();
    } finally {
      savingRef.current = false;
    }
    if (stillShown()) {
      autosaver.resume();
      if (autosaving) changed(getValues());
    }
    return result;
  }

  return { autosaving, state: autosaver.state, leaving, saveWith };
}
