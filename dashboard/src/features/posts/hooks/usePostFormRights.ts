import type { Post } from '@/api/posts';
import { useCapabilities, usePostRights } from '@/api/session';
import { ALL_STATUSES, type StatusOption } from '../statuses';
import type { PostFormValues } from '../schemas';

const DRAFT: StatusOption = { value: 'draft', label: 'Draft' };
const REVIEW: StatusOption = { value: 'review', label: 'Submit for review' };

/**
 * What the post form offers the signed-in role, in one place (from the capabilities of
 * GET /api/auth/me): read-only for a role that may not change the post, the statuses it may pick
 * (writers who cannot publish: "Draft" or "Submit for review", so the button says "Save draft" or
 * "Submit for review"), and the status the form opens with.
 */
export function usePostFormRights(post?: Post | null) {
  const rights = usePostRights(post);
  const { capabilities, ready } = useCapabilities();
  const canCreate = capabilities.has('post.create');
  const readOnly = post ? !rights.edit : !canCreate;
  let statusOptions: StatusOption[] = ALL_STATUSES;
  if (!rights.publish) {
    statusOptions = rights.requestReview ? [DRAFT, REVIEW] : [DRAFT];
    // A post already in another status keeps it on show (read-only screens, archived drafts).
    const current = ALL_STATUSES.find((o) => o.value === post?.status && o.value !== 'draft');
    if (current) statusOptions = [...statusOptions, current];
  }
  const initialStatus = (fallback: PostFormValues['status']): PostFormValues['status'] =>
    post?.reviewRequestedAt && rights.requestReview ? 'review' : fallback;
  // `ready`: the capabilities are known (the form waits for them rather than flash read-only).
  return { ready, readOnly, statusOptions, initialStatus, rights };
}
