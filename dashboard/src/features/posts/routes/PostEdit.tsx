import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import {
  useGetPostQuery,
  useLazyGetPostQuery,
  useRequestReviewMutation,
  useUpdatePostMutation,
  type Post,
} from '@/api/posts';
import { useCapabilities } from '@/api/session';
import { toastFailure } from '@/components/notify';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { isApiError } from '@/lib/errors';
import { ConflictDialog } from '../components/editorial/ConflictDialog';
import { PreviewLinksPanel } from '../components/editorial/PreviewLinksPanel';
import { ReviewBanner } from '../components/editorial/ReviewBanner';
import { TranslationsPanel } from '../components/editorial/TranslationsPanel';
import { EmailPanel } from '../components/email/EmailPanel';
import { PostForm } from '../components/PostForm';
import { PostNotFound } from '../components/PostNotFound';
import { usePostFormRights } from '../hooks/usePostFormRights';
import { useTermNames } from '../hooks/useTermNames';
import { POST, useKind } from '../kinds';
import { listPathFor, rewriteSaveError, toFormValues, toUpdatePayload } from '../payload';
import { compareSnapshots, snapshotOfForm, snapshotOfPost } from '../revisionDiff';
import type { PostFormValues } from '../schemas';

export const EDIT_CONFLICT = 'edit_conflict';

/** The editor of one post (or page), once it and the role's capabilities are known. */
function PostEditor({ post, onReload }: { post: Post; onReload: () => void }) {
  const navigate = useNavigate();
  const kind = useKind();
  const ref = { kind: kind.api, id: post.id };
  const [fetchPost] = useLazyGetPostQuery();
  const [updatePost, { isLoading: saving }] = useUpdatePostMutation();
  const [requestReview, { isLoading: requesting }] = useRequestReviewMutation();
  const { readOnly, statusOptions, initialStatus, rights } = usePostFormRights(post);
  const defaults = useMemo(() => {
    const values = toFormValues(post);
    return { ...values, status: initialStatus(values.status) };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [post, rights.requestReview]);
  // A save refused because the post changed since it was opened: the message, and what was sent.
  const [conflict, setConflict] = useState<{ message: string; yours: PostFormValues } | null>(null);
  // Category and tag names for the comparison (the form has loaded both lists already).
  const names = useTermNames();

  async function save(values: PostFormValues) {
    try {
      const body = { ...toUpdatePayload(values), baseUpdatedAt: post.updatedAt ?? undefined };
      // The date field shows the publish date; it is sent (as a schedule) only when changed.
      if (values.publishDate === defaults.publishDate) delete body.scheduledPublishDate;
      // Featured or no longer: sent when changed (left out, the server keeps it).
      if (values.featured !== defaults.featured) body.featured = values.featured;
      // Who reads it: sent when changed too.
      if (values.visibility !== defaults.visibility) body.visibility = values.visibility;
      const reply = await updatePost({ id: post.id, body, kind: kind.api }).unwrap();
      if (values.status === 'review') {
        await requestReview(ref).unwrap();
        toast.success(`${kind.Noun} submitted for review`);
      } else {
        toast.success(reply?.message || `${kind.Noun} updated successfully`);
      }
      navigate(listPathFor(values.status, kind.list));
      return undefined;
    } catch (err) {
      if (isApiError(err) && err.code === EDIT_CONFLICT) {
        setConflict({ message: err.message, yours: values });
        return undefined;
      }
      const message = isApiError(err) ? err.message : '';
      toastFailure(err, message ? rewriteSaveError(message) : `Failed to update ${kind.noun}. Please try again.`);
      return isApiError(err) ? err.errors : undefined;
    }
  }

  return (
    <>
      <PageHeader
        title={readOnly ? post.title : `Edit ${kind.Noun}: ${post.title}`}
        description={readOnly ? 'Read only' : kind === POST ? 'Update your blog post' : 'Update this page of your website'}
        search={false}
      />
      <ReviewBanner post={post} canReview={rights.review} />
      <PostForm
        key={`${post.id}:${post.updatedAt ?? ''}`}
        mode="edit"
        defaultValues={defaults}
        submitting={saving || requesting}
        onSubmit={save}
        readOnly={readOnly}
        statusOptions={statusOptions}
        autosave={readOnly ? undefined : { target: ref, baseUpdatedAt: post.updatedAt ?? null }}
        aside={
          readOnly ? null : (
            <>
              <EmailPanel post={post} />
              <section className="card card-body stack" aria-labelledby="history-title">
                <h2 id="history-title" className="card-title">
                  History
                </h2>
                <p className="small muted" style={{ margin: 0 }}>
                  Every save is kept: compare any two and restore one.
                </p>
                <Link className="btn btn-secondary" to={kind.history(post.id)}>
                  View history
                </Link>
              </section>
              <PreviewLinksPanel postId={post.id} canCreate={post.status === 'draft'} />
              <TranslationsPanel post={post} />
            </>
          )
        }
      />
      <ConflictDialog
        message={conflict?.message ?? null}
        onClose={() => setConflict(null)}
        onReload={() => {
          setConflict(null);
          onReload();
        }}
        changes={async () => {
          const theirs = await fetchPost(ref).unwrap();
          const yours = conflict ? snapshotOfForm(conflict.yours, theirs.slug) : {};
          return compareSnapshots(snapshotOfPost(theirs), yours, names);
        }}
      />
    </>
  );
}

/** /dashboard/posts/edit/{id} (/dashboard/pages/{id}): the post (page) in its editor, read only for
 * a role that may not change it. */
export function PostEdit() {
  const { id = '' } = useParams();
  const kind = useKind();
  const post = useGetPostQuery({ kind: kind.api, id }, { skip: !id, refetchOnMountOrArgChange: true });
  // The form waits for the capabilities rather than flash read-only.
  const { ready } = useCapabilities();
  if (!id) return <PostNotFound message={`${kind.Noun} ID is required`} />;
  return (
    <QueryState query={{ ...post, data: ready ? post.data : undefined }} loading={`Loading ${kind.noun}...`} failed={<PostNotFound />}>
      {(data) => <PostEditor post={data} onReload={() => void post.refetch()} />}
    </QueryState>
  );
}
