import { useMemo } from 'react';
import { useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { PageHeader } from '@/components/PageHeader';
import { LoadingState } from '@/components/ui';
import { isApiError } from '@/lib/errors';
import { useGetPostQuery, useUpdatePostMutation } from '../api';
import { PostForm } from '../components/PostForm';
import { PostNotFound } from '../components/PostNotFound';
import { listPathFor, rewriteSaveError, toFormValues, toUpdatePayload } from '../payload';
import type { PostFormValues } from '../schemas';

export function PostEdit() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { data: post, isLoading, isError } = useGetPostQuery(id, { skip: !id, refetchOnMountOrArgChange: true });
  const [updatePost, { isLoading: saving }] = useUpdatePostMutation();
  const defaults = useMemo(() => (post ? toFormValues(post) : null), [post]);

  if (!id) return <PostNotFound message="Post ID is required" />;
  if (isLoading) return <LoadingState label="Loading post..." />;
  if (isError || !post || !defaults) return <PostNotFound />;

  async function save(values: PostFormValues) {
    try {
      const body = toUpdatePayload(values);
      // The date field shows the publish date; it is sent (as a schedule) only when changed.
      if (values.publishDate === defaults?.publishDate) delete body.scheduledPublishDate;
      const reply = await updatePost({ id, body }).unwrap();
      toast.success(reply?.message || 'Post updated successfully');
      navigate(listPathFor(values.status));
      return undefined;
    } catch (err) {
      const message = isApiError(err) ? err.message : '';
      toast.error(message ? rewriteSaveError(message) : 'Failed to update post. Please try again.');
      return isApiError(err) ? err.errors : undefined;
    }
  }

  return (
    <>
      <PageHeader title={`Edit Post: ${post.title}`} description="Update your blog post" search={false} />
      <PostForm key={post.id} mode="edit" defaultValues={defaults} submitting={saving} onSubmit={save} />
    </>
  );
}
