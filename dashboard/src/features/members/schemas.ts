import { z } from 'zod';

/** The server's limits and messages (apps/members/schemas.py, apps/core/validation.py). */
export const NAME_MAX = 191;
export const NOTE_MAX = 2000;

export const memberSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Email is required')
    .refine((v) => v === '' || z.email().safeParse(v).success, 'Please enter a valid email address'),
  name: z.string().trim().max(NAME_MAX, `Name must be at most ${NAME_MAX} characters`),
  note: z.string().trim().max(NOTE_MAX, `Note must be at most ${NOTE_MAX} characters`),
  status: z.enum(['free', 'comped']),
  labels: z.array(z.string()),
  newsletters: z.array(z.string()),
  /** Send to an address the email provider turned off again. */
  sendAgain: z.boolean(),
});

export type MemberValues = z.infer<typeof memberSchema>;

export const STATUS_OPTIONS = [
  { value: 'free', label: 'Free' },
  { value: 'comped', label: 'Complimentary' },
];

export const SOURCE_TEXT: Record<string, string> = {
  website: 'Signed up on the website',
  import: 'Imported',
  admin: 'Added in the dashboard',
};

/** Label names as typed (comma separated), cleaned as the server does: spaces collapsed, empties
 * and repeats left out. */
export function labelNames(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of text.split(',')) {
    const name = part.split(/\s+/).filter(Boolean).join(' ');
    if (name && !seen.has(name.toLowerCase())) {
      seen.add(name.toLowerCase());
      out.push(name);
    }
  }
  return out;
}
