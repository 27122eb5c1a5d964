import { scheduleFor } from './payload';
import type { PostFormValues } from './schemas';

/** A status the post form offers (usePostFormRights picks them for the role). */
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
