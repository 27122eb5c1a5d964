import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Controller, useForm, type FieldErrors, type UseFormSetError } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { RichTextEditor } from '@/components/editor/RichTextEditor';
import { Field, Spinner, Tabs } from '@/components/ui';
import { ALL_TAGS, useCreateTermMutation, useGetCategoriesQuery, useGetTagsQuery } from '@/api/terms';
import type { FieldError } from '@/lib/errors';
import { slugify } from '@/lib/slug';
import { scheduleFor, SERVER_FIELD } from '../payload';
import { createPostSchema, editPostSchema, FIELD_TAB, type PostFormValues } from '../schemas';
import { autosaveLabel, useAutosave } from '../useAutosave';
import { LeaveGuard } from './editorial/LeaveGuard';
import { UnsavedCopyBanner } from './editorial/UnsavedCopyBanner';
import { FeaturedImageField } from './FeaturedImageField';
import { SeoGenerator } from './SeoGenerator';
import { TermMultiSelect } from './TermMultiSelect';
import { YouTubeField } from './YouTubeField';

export const SEO_TITLE_GUIDE = 60;
export const SEO_DESCRIPTION_GUIDE = 160;

type Tab = 'content' | 'seo' | 'preview';

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
  /** Keep a draft copy on the server while typing: the post's id (`new` before it exists) and
   * its updatedAt when opened. */
  autosave?: { target: string; baseUpdatedAt?: string | null };
  /** More panels under the sidebar (history, preview links). */
  aside?: ReactNode;
}

export interface StatusOption {
  value: PostFormValues['status'];
  label: string;
}

export const ALL_STATUSES: StatusOption[] = [
  { value: 'draft', label: 'Draft' },
  { value: 'published', label: 'Published' },
  { value: 'archived', label: 'Archived' },
];

/** The save button says what saving will do with the chosen status and date. */
export function submitLabel(mode: 'create' | 'edit', status: PostFormValues['status'], publishDate: string, initialStatus: PostFormValues['status']): string {
  if (status === 'review') return 'Submit for review';
  if (status === 'draft') return 'Save draft';
  if (status === 'published' && scheduleFor(publishDate)) return 'Schedule';
  if (mode === 'edit' && status === initialStatus) return 'Update';
  if (status === 'published') return 'Publish';
  return mode === 'edit' ? 'Update' : 'Save';
}

const TAB_FIELDS: Record<'content' | 'seo', (keyof PostFormValues)[]> = {
  content: (Object.keys(FIELD_TAB) as (keyof PostFormValues)[]).filter((k) => FIELD_TAB[k] === 'content' && k !== 'title'),
  seo: (Object.keys(FIELD_TAB) as (keyof PostFormValues)[]).filter((k) => FIELD_TAB[k] === 'seo'),
};

function TabLabel({ text, invalid, id }: { text: string; invalid: boolean; id: string }) {
  return (
    <>
      {text}
      {invalid ? (
        <>
          <span className="tab-error-dot" aria-hidden="true" />
          <span id={id} hidden>
            This section has a field to correct
          </span>
        </>
      ) : null}
    </>
  );
}

function Counter({ value, guide }: { value: string; guide: number }) {
  const over = value.length > guide;
  return (
    <span className={over ? 'counter over' : 'counter'} data-testid="counter">
      {value.length}/{guide}
    </span>
  );
}

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
  const [tab, setTab] = useState<Tab>('content');
  const {
    register,
    control,
    handleSubmit,
    getValues,
    setValue,
    setError,
    watch,
    reset,
    formState: { errors, isDirty },
  } = useForm<PostFormValues>({
    resolver: zodResolver(mode === 'create' ? createPostSchema : editPostSchema),
    defaultValues,
    // Focus is moved by focusFirstError once the tab holding the field is shown.
    shouldFocusError: false,
  });
  const formRef = useRef<HTMLFormElement>(null);

  // Draft copy while typing, and a question before leaving with unsaved changes.
  const autosaving = !!autosave && !readOnly;
  const autosaver = useAutosave<PostFormValues>({
    target: autosave?.target ?? 'new',
    baseUpdatedAt: autosave?.baseUpdatedAt,
    enabled: autosaving,
  });
  const { changed: autosaveChanged } = autosaver;
  const [copyOffered, setCopyOffered] = useState(false);
  const dirtyRef = useRef(false);
  dirtyRef.current = isDirty;
  const savingRef = useRef(false);
  const leaving = useCallback(() => !readOnly && dirtyRef.current && !savingRef.current, [readOnly]);
  useEffect(() => {
    if (!autosaving) return undefined;
    const start = JSON.stringify(defaultValues);
    const subscription = watch((values) => {
      if (JSON.stringify(values) !== start) autosaveChanged(values as PostFormValues);
    });
    return () => subscription.unsubscribe();
  }, [autosaving, watch, autosaveChanged, defaultValues]);

  const categories = useGetCategoriesQuery();
  const tags = useGetTagsQuery(ALL_TAGS);
  const [createTerm] = useCreateTermMutation();

  // Select AI-suggested categories and tags by name once the lists are known.
  const [preselected, setPreselected] = useState(false);
  useEffect(() => {
    if (preselected || !preselectNames || !categories.data || !tags.data) return;
    const pick = (names: string[], items: { id: string; name: string; slug: string }[]) =>
      items
        .filter((i) => names.some((n) => n.toLowerCase() === i.name.toLowerCase() || slugify(n) === i.slug))
        .map((i) => String(i.id));
    const cats = pick(preselectNames.categories, categories.data);
    const tgs = pick(preselectNames.tags, tags.data.tags);
    if (cats.length) setValue('categories', cats);
    if (tgs.length) setValue('tags', tgs);
    setPreselected(true);
  }, [preselected, preselectNames, categories.data, tags.data, setValue]);

  const seoTitle = watch('seoTitle');
  const seoDescription = watch('seoDescription');
  const content = watch('content');

  /** The first field to correct gets focus (its tab is opened first). */
  function focusFirstError() {
    requestAnimationFrame(() => {
      const form = formRef.current;
      if (!form) return;
      // In document order: an invalid control, or the message under a field that has none.
      const first = form.querySelector<HTMLElement>('[aria-invalid="true"], .field-error');
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

  function onInvalid(errs: FieldErrors<PostFormValues>) {
    const first = (Object.keys(FIELD_TAB) as (keyof PostFormValues)[]).find((k) => errs[k]);
    if (first && FIELD_TAB[first] === 'seo') setTab('seo');
    else if (first && FIELD_TAB[first] === 'content') setTab('content');
    focusFirstError();
  }

  function onTitleBlur() {
    const title = getValues('title').trim();
    if (!title) return;
    if (!getValues('slug').trim()) setValue('slug', slugify(title));
    if (!getValues('seoTitle').trim()) setValue('seoTitle', title);
  }

  const titleField = register('title');
  const status = watch('status');
  const publishDate = watch('publishDate');
  const label = submitLabel(mode, status, publishDate ?? '', defaultValues.status);
  const invalidTab = (t: 'content' | 'seo') => TAB_FIELDS[t].some((k) => !!errors[k]);

  return (
    <form
      ref={formRef}
      className="post-form"
      noValidate
      onSubmit={handleSubmit(async (values) => {
        if (readOnly) return;
        savingRef.current = true;
        autosaver.stop(); // a save clears the copy on the server: nothing may recreate it
        let fieldErrors: FieldError[] | undefined;
        try {
          fieldErrors = await onSubmit(values);
        } finally {
          savingRef.current = false;
        }
        if (formRef.current?.isConnected) {
          // Still here: the save was refused; the copy keeps following the form.
          autosaver.resume();
          if (autosaving) autosaveChanged(getValues());
        }
        const applied = applyServerErrors(fieldErrors, setError);
        if (applied.length) onInvalid(Object.fromEntries(applied.map((f) => [f, true])) as FieldErrors<PostFormValues>);
      }, onInvalid)}
    >
      <div className="stack" style={{ gap: 16 }}>
        {autosaving && autosave ? (
          <UnsavedCopyBanner<PostFormValues>
            target={autosave.target}
            updatedAt={autosave.baseUpdatedAt}
            hidden={copyOffered}
            onDone={() => setCopyOffered(true)}
            onRestore={(fields) => reset({ ...defaultValues, ...fields }, { keepDefaultValues: true })}
          />
        ) : null}
        <section className="card card-body stack">
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
          <Tabs<Tab>
            label="Post sections"
            value={tab}
            onChange={setTab}
            tabs={[
              {
                id: 'content',
                label: <TabLabel text="Content" invalid={invalidTab('content')} id="tab-content-error" />,
                describedBy: invalidTab('content') ? 'tab-content-error' : undefined,
              },
              {
                id: 'seo',
                label: <TabLabel text="SEO" invalid={invalidTab('seo')} id="tab-seo-error" />,
                describedBy: invalidTab('seo') ? 'tab-seo-error' : undefined,
              },
              { id: 'preview', label: 'Preview' },
            ]}
          />
          {tab === 'content' ? (
            <div className="stack" role="tabpanel" aria-label="Content">
              <fieldset className="fieldset-contents" disabled={readOnly}>
              <Field label="Content" error={errors.content?.message}>
                {readOnly ? (
                  <div className="prose read-only-content" dangerouslySetInnerHTML={{ __html: content }} />
                ) : (
                  <Controller
                    control={control}
                    name="content"
                    render={({ field }) => (
                      <RichTextEditor value={field.value} onChange={field.onChange} invalid={!!errors.content} />
                    )}
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
          ) : null}
          {tab === 'seo' ? (
            <div className="stack" role="tabpanel" aria-label="SEO">
              <fieldset className="fieldset-contents" disabled={readOnly}>
              {readOnly ? null : (
              <SeoGenerator
                getSource={() => ({
                  title: getValues('title'),
                  content: getValues('content'),
                  excerpt: getValues('excerpt'),
                })}
                onApply={(r) => {
                  setValue('seoTitle', r.metaTitle, { shouldValidate: !!errors.seoTitle });
                  setValue('seoDescription', r.metaDescription, { shouldValidate: !!errors.seoDescription });
                  setValue('focusKeyword', r.keywords);
                }}
              />
              )}
              <Field label="URL Slug" htmlFor="slug" hint="Generated from the title when left empty">
                <input id="slug" className="input" {...register('slug')} />
              </Field>
              <Field
                label="SEO Title"
                htmlFor="seoTitle"
                error={errors.seoTitle?.message}
                aside={<Counter value={seoTitle ?? ''} guide={SEO_TITLE_GUIDE} />}
              >
                <input id="seoTitle" className="input" aria-invalid={!!errors.seoTitle} {...register('seoTitle')} />
              </Field>
              <Field
                label="SEO Description"
                htmlFor="seoDescription"
                error={errors.seoDescription?.message}
                aside={<Counter value={seoDescription ?? ''} guide={SEO_DESCRIPTION_GUIDE} />}
              >
                <textarea
                  id="seoDescription"
                  className="textarea"
                  aria-invalid={!!errors.seoDescription}
                  {...register('seoDescription')}
                />
              </Field>
              <Field label="Focus Keywords" htmlFor="focusKeyword" hint="Separate keywords with commas">
                <input id="focusKeyword" className="input" {...register('focusKeyword')} />
              </Field>
              <Field label="Canonical URL" htmlFor="canonicalUrl" error={errors.canonicalUrl?.message}>
                <input
                  id="canonicalUrl"
                  className="input"
                  type="url"
                  placeholder="https://example.com/original-post"
                  aria-invalid={!!errors.canonicalUrl}
                  {...register('canonicalUrl')}
                />
              </Field>
              </fieldset>
            </div>
          ) : null}
          {tab === 'preview' ? (
            <div className="stack" role="tabpanel" aria-label="Preview">
              <h2 style={{ fontSize: 26 }}>{getValues('title') || 'Untitled post'}</h2>
              {getValues('excerpt') ? <p className="muted">{getValues('excerpt')}</p> : null}
              <div className="prose" dangerouslySetInnerHTML={{ __html: content }} />
            </div>
          ) : null}
        </section>
      </div>
      <aside className="stack" style={{ gap: 16 }}>
        <fieldset className="fieldset-contents" disabled={readOnly}>
        <section className="card card-body stack">
          <Field label="Status" htmlFor="status">
            <select id="status" className="select" {...register('status')}>
              {statusOptions.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Publish Date" htmlFor="publishDate">
            <input id="publishDate" type="date" className="input" {...register('publishDate')} />
          </Field>
        </section>
        <section className="card card-body stack">
          <Controller
            control={control}
            name="categories"
            render={({ field }) => (
              <TermMultiSelect
                kind="category"
                label="Categories"
                terms={categories.data ?? []}
                loading={categories.isLoading}
                value={field.value}
                onChange={field.onChange}
                onRefresh={() => categories.refetch()}
                onCreate={async (input) => (await createTerm({ kind: 'category', body: input }).unwrap()).term}
                error={errors.categories?.message}
                suggestions={preselectNames?.categories}
              />
            )}
          />
          <Controller
            control={control}
            name="tags"
            render={({ field }) => (
              <TermMultiSelect
                kind="tag"
                label="Tags"
                terms={tags.data?.tags ?? []}
                loading={tags.isLoading}
                value={field.value}
                onChange={field.onChange}
                onRefresh={() => tags.refetch()}
                onCreate={async ({ name, slug }) => (await createTerm({ kind: 'tag', body: { name, slug } }).unwrap()).term}
                error={errors.tags?.message}
                suggestions={preselectNames?.tags}
              />
            )}
          />
        </section>
        <section className="card card-body stack">
          <Controller
            control={control}
            name="featuredImage"
            render={({ field }) => (
              <FeaturedImageField value={field.value} onChange={field.onChange} error={errors.featuredImage?.message} />
            )}
          />
          <Controller
            control={control}
            name="videoId"
            render={({ field }) => <YouTubeField value={field.value} onChange={field.onChange} />}
          />
        </section>
        </fieldset>
        {aside}
      </aside>
      {readOnly ? (
        <div className="form-actions" role="group" aria-label="Post actions">
          <span className="small muted form-actions-note">Your role can read this post, not change it</span>
          <Link to="/dashboard/posts" className="btn btn-secondary">
            Back to posts
          </Link>
        </div>
      ) : (
        <div className="form-actions" role="group" aria-label="Save the post">
          <span className="small muted form-actions-note">
            {status === 'draft'
              ? 'Not visible on the site'
              : status === 'review'
                ? 'An editor publishes it or sends it back'
                : label === 'Schedule'
                  ? `Goes live on ${publishDate}`
                  : null}
          </span>
          {autosaving ? (
            <span className="autosave-status" role="status" aria-live="polite" data-testid="autosave-status">
              {autosaveLabel(autosaver.state)}
            </span>
          ) : null}
          <Link to="/dashboard/posts" className="btn btn-secondary">
            Cancel
          </Link>
          <button type="submit" className="btn btn-primary" disabled={submitting}>
            {submitting ? <Spinner small label="Saving" /> : null}
            {label}
          </button>
        </div>
      )}
      {readOnly ? null : <LeaveGuard when={leaving} />}
    </form>
  );
}
