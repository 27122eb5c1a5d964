import { useRef, useState, type ReactNode } from 'react';
import { FormProvider, useForm, type FieldErrors } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { ContentRef } from '@/api/posts';
import type { FieldError } from '@/lib/errors';
import { applyServerErrors, focusFirstError, tabOfFirstError } from '../formErrors';
import { useFormAutosave } from '../hooks/useFormAutosave';
import { useKind } from '../kinds';
import { createPageSchema, createPostSchema, editPostSchema, type PostFormValues } from '../schemas';
import { ALL_STATUSES, type StatusOption } from '../statuses';
import { LeaveGuard } from './editorial/LeaveGuard';
import { UnsavedCopyBanner } from './editorial/UnsavedCopyBanner';
import { PostSections, type PostTab } from './PostSections';
import { PostSidebar } from './PostSidebar';
import { SaveBar } from './SaveBar';
import { TitleField } from './TitleField';

interface Props {
  mode: 'create' | 'edit';
  defaultValues: PostFormValues;
  submitting: boolean;
  /** Save; resolves to the server's field errors when the save was refused. */
  onSubmit: (values: PostFormValues) => Promise<FieldError[] | undefined>;
  /** Category and tag names to select once the lists are loaded (AI prefill). */
  preselectNames?: { categories: string[]; tags: string[] };
  /** Shown, not editable: no save button (a role that may not change this post). */
  readOnly?: boolean;
  /** The statuses the role may choose (usePostFormRights); all three when absent. */
  statusOptions?: StatusOption[];
  /** Keep a draft copy on the server while typing: the post's (page's) id, `new` before it
   * exists, and its updatedAt when opened. */
  autosave?: { target: ContentRef; baseUpdatedAt?: string | null };
  /** More panels under the sidebar (history, preview links). */
  aside?: ReactNode;
}

/** The post editor: title, the Content / SEO / Preview tabs, the sidebar and the save bar. */
export function PostForm({
  mode,
  defaultValues,
  submitting,
  onSubmit,
  preselectNames,
  readOnly = false,
  statusOptions = ALL_STATUSES,
  autosave,
  aside,
}: Props) {
  const [tab, setTab] = useState<PostTab>('content');
  const kind = useKind();
  const form = useForm<PostFormValues>({
    resolver: zodResolver(mode === 'edit' ? editPostSchema : kind.categories ? createPostSchema : createPageSchema),
    defaultValues,
    // Focus is moved by focusFirstError once the tab holding the field is shown.
    shouldFocusError: false,
  });
  const formRef = useRef<HTMLFormElement>(null);
  // Draft copy while typing, and a question before leaving with unsaved changes.
  const copy = useFormAutosave(form, { autosave, readOnly, defaultValues });
  const [copyOffered, setCopyOffered] = useState(false);

  function onInvalid(errors: FieldErrors<PostFormValues>) {
    const errorTab = tabOfFirstError(errors);
    if (errorTab) setTab(errorTab);
    focusFirstError(() => formRef.current);
  }

  const submit = form.handleSubmit(async (values) => {
    if (readOnly) return;
    const fieldErrors = await copy.saveWith(() => onSubmit(values), () => !!formRef.current?.isConnected);
    const applied = applyServerErrors(fieldErrors, form.setError);
    if (applied.length) onInvalid(Object.fromEntries(applied.map((f) => [f, true])) as FieldErrors<PostFormValues>);
  }, onInvalid);

  return (
    <FormProvider {...form}>
      <form ref={formRef} className="post-form" noValidate onSubmit={submit}>
        <div className="stack" style={{ gap: 16 }}>
          {copy.autosaving && autosave ? (
            <UnsavedCopyBanner<PostFormValues>
              target={autosave.target}
              updatedAt={autosave.baseUpdatedAt}
              hidden={copyOffered}
              onDone={() => setCopyOffered(true)}
              onRestore={(fields) => form.reset({ ...defaultValues, ...fields }, { keepDefaultValues: true })}
            />
          ) : null}
          <section className="card card-body stack">
            <TitleField readOnly={readOnly} />
            <PostSections tab={tab} onTab={setTab} readOnly={readOnly} />
          </section>
        </div>
        <PostSidebar readOnly={readOnly} statusOptions={statusOptions} suggested={preselectNames}>
          {aside}
        </PostSidebar>
        <SaveBar
          mode={mode}
          initialStatus={defaultValues.status}
          submitting={submitting}
          readOnly={readOnly}
          autosave={copy.autosaving ? copy.state : undefined}
        />
        {readOnly ? null : <LeaveGuard when={copy.leaving} />}
      </form>
    </FormProvider>
  );
}
