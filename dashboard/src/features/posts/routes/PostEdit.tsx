import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { PageHeader } from '@/components/PageHeader';
import { LoadingState } from '@/components/ui';
import { isApiError } from '@/lib/errors';
import { useGetCategoriesQuery, useGetTagsQuery } from '@/lib/taxonomyApi';
import { useGetPostQuery, useLazyGetPostQuery, useUpdatePostMutation } from '../api';
import { ConflictDialog } from '../components/editorial/ConflictDialog';
import { PreviewLinksPanel } from '../components/editorial/PreviewLinksPanel';
import { ALL_TAGS_LIMIT, PostForm } from '../components/PostForm';
import { PostNotFound } from '../components/PostNotFound';
import { listPathFor, rewriteSaveError, toFormValues, toUpdatePayload } from '../payload';
import { compareSnapshots, snapshotOfForm, snapshotOfPost, type Names } from '../revisionDiff';
import type { PostFormValues } from '../schemas';

export const EDIT_CONFLICT = 'edit_conflict';

export function PostEdit() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { data: post, isLoading, isError, refetch } = useGetPostQuery(id, { skip: !id, refetchOnMountOrArgChange: true });
  const [fetchPost] = useLazyGetPostQuery();
  const [updatePost, { isLoading: saving }] = useUpdatePostMutation();
  const defaults = useMemo(() => (post ? toFormValues(post) : null), [post]);
  // A save refused because the post changed since it was opened: the message, and what was sent.
  const [conflict, setConflict] = useState<{ message: string; yours: PostFormValues } | null>(null);
  // Category and tag names for the comparison (the form has loaded both lists already).
  const categories = useGetCategoriesQuery();
  const tags = useGetTagsQuery({ page: 1, limit: ALL_TAGS_LIMIT });

  if (!id) return <PostNotFound message="Post ID is required" />;
  if (isLoading) return <LoadingState label="Loading post..." />;
  if (isError || !post || !defaults) return <PostNotFound />;

  async function save(values: PostFormValues) {
    try {
      const body = { ...toUpdatePayload(values), baseUpdatedAt: post?.updatedAt ?? undefined };
      // The date field shows the publish date; it is sent (as a schedule) only when changed.
      if (values.publishDate === defaults?.publishDate) delete body.scheduledPublishDate;
      const reply = await updatePost({ id, body }).unwrap();
      toast.success(reply?.message || 'Post updated successfully');
      navigate(listPathFor(values.status));
      return undefined;
    } catch (err) {
      if (isApiError(err) && err.detail === EDIT_CONFLICT) {
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
      <PageHeader title={`Edit Post: ${post.title}`} description="Update your blog post" search={false} />
      <PostForm
        key={`${post.id}:${post.updatedAt ?? ''}`}
        mode="edit"
        defaultValues={defaults}
        submitting={saving}
        onSubmit={save}
        autosave={{ target: post.id, baseUpdatedAt: post.updatedAt ?? null }}
        aside={
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
