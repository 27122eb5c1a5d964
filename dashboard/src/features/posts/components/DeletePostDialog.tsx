import { toast } from 'sonner';
import { useDeletePostMutation } from '@/api/posts';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { isApiError } from '@/lib/errors';
import { deleteErrorMessage } from '../payload';

interface Props {
  postId: string | null;
  onClose: () => void;
  onDeleted: () => void;
  onGone?: () => void;
}

export function DeletePostDialog({ postId, onClose, onDeleted, onGone }: Props) {
  const [deletePost, { isLoading }] = useDeletePostMutation();
  async function confirm() {
    if (!postId) return;
    try {
      const reply = await deletePost(postId).unwrap();
      toast.success(reply?.message || 'Post deleted successfully');
      onDeleted();
    } catch (err) {
      const { text, refresh } = deleteErrorMessage(isApiError(err) ? err.status : undefined, isApiError(err) ? err.message : '');
      toast.error(text);
      if (refresh) onGone?.();
    } finally {
      onClose();
    }
  }
  return (
    <ConfirmDialog
      open={!!postId}
      title="Are you sure you want to delete this post?"
      busy={isLoading}
      onCancel={onClose}
      onConfirm={confirm}
    >
      <p style={{ margin: 0 }}>
        This action cannot be undone. This will permanently delete the post and remove all associated data.
      </p>
    </ConfirmDialog>
  );
}
