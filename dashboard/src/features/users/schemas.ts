import { z } from 'zod';
import { capitalized } from '@/components/form';

export const ROLES = ['admin', 'editor', 'author', 'viewer'] as const;
/** Roles an admin can give on the edit screen (no viewer, spec §6). */
export const STATUSES = ['active', 'inactive', 'suspended'] as const;

/** The role and status selects of the user forms. */
export const ROLE_OPTIONS = capitalized(ROLES);
export const STATUS_OPTIONS = capitalized(STATUSES);

export const createUserSchema = z.object({
  username: z.string().trim().min(3, 'Username must be at least 3 characters'),
  email: z.string().trim().pipe(z.email('Please enter a valid email address')),
  password: z.string().min(8, 'Password must be at least 8 characters'),
  role: z.string().refine((v) => (ROLES as readonly string[]).includes(v), 'Please select a role'),
});
export type CreateUserValues = z.infer<typeof createUserSchema>;

export interface EditUserValues {
  username: string;
  email: string;
  password: string;
  /** Asked when users change their own password or email (the server requires it). */
  currentPassword: string;
  role: string;
  status: string;
}

export const CURRENT_PASSWORD_REQUIRED = 'Current password is required to change your password or email';

/** Changing one's own password or email needs the current password (same rule as the server). */
export function needsCurrentPassword(own: boolean, values: { email: string; password: string }, savedEmail: string): boolean {
  return own && (values.password !== '' || values.email.trim().toLowerCase() !== savedEmail.trim().toLowerCase());
}
