import { z } from 'zod';
import { SUBJECT_MAX, sendBlocks, type Newsletter, type NewsletterSend } from '@/api/newsletters';

/** A send's choices: the newsletter, optionally one label of its members, and the subject (empty:
 * the post's title), as the server checks them (apps/newsletters/schemas.py). */
export const sendSchema = z.object({
  newsletterId: z.string().min(1, 'Choose a newsletter'),
  labelId: z.string(),
  subject: z
    .string()
    .trim()
    .max(SUBJECT_MAX, `Subject must be at most ${SUBJECT_MAX} characters`)
    .refine((v) => !/[\r\n]/.test(v), 'Subject must be on one line'),
});

export type SendValues = z.infer<typeof sendSchema>;

/** The newsletters a post can be sent to: the active ones. */
export function activeNewsletters(newsletters: Newsletter[] | undefined): Newsletter[] {
  return (newsletters ?? []).filter((n) => n.status === 'active');
}

/** The post's sends that keep it from going to their newsletter again, by newsletter. */
export function sentTo(sends: NewsletterSend[] | undefined): Map<string, NewsletterSend> {
  return new Map((sends ?? []).filter(sendBlocks).map((s) => [s.newsletter.id, s]));
}
