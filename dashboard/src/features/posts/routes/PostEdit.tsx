import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { PageHeader } from '@/components/PageHeader';
import { Dialog, Field, LoadingState } from '@/components/ui';
import {
  useGetPostQuery,
  useLazyGetPostQuery,
  useRequestReviewMutation,
  useReturnReviewMutation,
  useUpdatePostMutation,
  type Post,
} from '@/api/posts';
import { ALL_TAGS, useGetCategoriesQuery, useGetTagsQuery } from '@/api/terms';
import { formatDate } from '@/lib/format';
import { isApiError } from '@/lib/errors';
import { ConflictDialog } from '../components/editorial/ConflictDialog';
import { PreviewLinksPanel } from '../components/editorial/PreviewLinksPanel';
import { PostForm } from '../components/PostForm';
import { PostNotFound } from '../components/PostNotFound';
import { usePostFormRights } from '../hooks/usePostFormRights';
import { listPathFor, rewriteSaveError, toFormValues, toUpdatePayload } from '../payload';
import { compareSnapshots, snapshotOfForm, snapshotOfPost, type Names } from '../revisionDiff';
import type { PostFormValues } from '../schemas';

/** The post's review state: the editor's note to the writer, or (editors) "send back". */
function ReviewBanner({ post, canReview }: { post: Post; canReview: boolean }) {
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState('');
  const [error, setError] = useState('');
  const [returnReview, { isLoading }] = useReturnReviewMutation();
  if (!post.reviewRequestedAt && !post.reviewNote) return null;

  async function sendBack() {
    if (!note.trim()) {
      setError('Please write a note for the writer');
      return;
    }
    try {
      const reply = await returnReview({ id: post.id, note: note.trim() }).unwrap();
      toast.success(reply?.message || 'Post sent back to the writer');
      setOpen(false);
    } catch (err) {
      setError(isApiError(err) ? err.message : 'Could not send the post back');
    }
  }

  return (
    <div className="notice" role="status" style={{ marginBottom: 16 }}>
      {post.reviewRequestedAt ? (
        <div className="row wrap" style={{ justifyContent: 'space-between', gap: 8 }}>
          <span>Waiting for review since {formatDate(post.reviewRequestedAt)}.</span>
          {canReview ? (
            <button type="button" className="btn btn-secondary" onClick={() => setOpen(true)}>
              Send back
            </button>
          ) : null}
        </div>
      ) : (
        <span>
          Sent back from review: <strong>{post.reviewNote}</strong>
        </span>
      )}
      <Dialog
        open={open}
        title="Send back to the writer"
        onClose={() => setOpen(false)}
        footer={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button type="button" className="btn btn-primary" disabled={isLoading} onClick={() => void sendBack()}>
              Send back
            </button>
          </>
        }
      >
          <Field label="Note for the writer" htmlFor="review-note" error={error || undefined}>
            <textarea
              id="review-note"
              className="textarea"
              value={note}
              aria-invalid={!!error}
              onChange={(e) => {
                setNote(e.target.value);
                setError('');
              }}
            />
          </Field>
      </Dialog>
    </div>
  );
}

export const EDIT_CONFLICT = 'edit_conflict';

export function PostEdit() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { data: post, isLoading, isError, refetch } = useGetPostQuery(id, { skip: !id, refetchOnMountOrArgChange: true });
  const [fetchPost] = useLazyGetPostQuery();
  const [updatePost, { isLoading: saving }] = useUpdatePostMutation();
  const [requestReview, { isLoading: requesting }] = useRequestReviewMutation();
  const { ready, readOnly, statusOptions, initialStatus, rights } = usePostFormRights(post);
  const defaults = useMemo(() => {
    if (!post) return null;
    const values = toFormValues(post);
    return { ...values, status: initialStatus(values.status) };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [post, rights.requestReview]);
  // A save refused because the post changed since it was opened: the message, and what was sent.
  const [conflict, setConflict] = useState<{ message: string; yours: PostFormValues } | null>(null);
  // Category and tag names for the comparison (the form has loaded both lists already).
  const categories = useGetCategoriesQuery();
  const tags = useGetTagsQuery(ALL_TAGS);

  if (!id) return <PostNotFound message="Post ID is required" />;
  if (isLoading || (post && !ready)) return <LoadingState label="Loading post..." />;
  if (isError || !post || !defaults) return <PostNotFound />;

  async function save(values: PostFormValues) {
    try {
      const body = { ...toUpdatePayload(values), baseUpdatedAt: post?.updatedAt ?? undefined };
      // The date field shows the publish date; it is sent (as a schedule) only when changed.
      if (values.publishDate === defaults?.publishDate) delete body.scheduledPublishDate;
      const reply = await updatePost({ id, body }).unwrap();
      if (values.status === 'review') {
        await requestReview(id).unwrap();
        toast.success('Post submitted for review');
      } else {
        toast.success(reply?.message || 'Post updated successfully');
      }
      navigate(listPathFor(values.status));
      return undefined;
    } catch (err) {
      if (isApiError(err) && err.code === EDIT_CONFLICT) {
        setConflict({ message: err.message, yours: values });
        return undefined;
      }
      const message = isApiError(err) ? err.message : '';
      toast.error(message ? rewriteSaveError(message) : 'Failed to update post. Please try again.');
      return isApiError(err) ? err.errors : undefined;
    }
  }

  const isDraft = post.status === 'draft';
  return (
    <>
      <PageHeader
        title={readOnly ? post.title : `Edit Post: ${post.title}`}
        description={readOnly ? 'Read only' : 'Update your blog post'}
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
        autosave={readOnly ? undefined : { target: post.id, baseUpdatedAt: post.updatedAt ?? null }}
        aside={
          readOnly ? null : (
            <>
            <section className="card card-body stack" aria-labelledby="history-title">
              <h2 id="history-title" className="card-title">
                History
              </h2>
              <p className="small muted" style={{ margin: 0 }}>
                Every save is kept: compare any two and restore one.
              </p>
              <Link className="btn btn-secondary" to={`/dashboard/posts/edit/${post.id}/history`}>
                View history
              </Link>
            </section>
            <PreviewLinksPanel postId={post.id} canCreate={isDraft} />
            </>
          )
        }
      />
      <ConflictDialog
        message={conflict?.message ?? null}
        onClose={() => setConflict(null)}
        onReload={() => {
          setConflict(null);
          void refetch();
        }}
        changes={async () => {
          const theirs = await fetchPost(id).unwrap();
          const yours = conflict ? snapshotOfForm(conflict.yours, theirs.slug) : {};
          const names: Names = {};
          for (const c of categories.data ?? []) names[String(c.id)] = c.name;
          for (const t of tags.data?.tags ?? []) names[String(t.id)] = t.name;
          return compareSnapshots(snapshotOfPost(theirs), yours, names);
        }}
      />
    </>
  );
}
