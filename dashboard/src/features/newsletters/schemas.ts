import { z } from 'zod';
import { NEWSLETTER_NAME_MAX, NEWSLETTER_TEXT_MAX, type Newsletter, type NewsletterBody } from '@/api/newsletters';

/** One line, as the server wants every text that becomes an email header. */
const oneLine = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine((v) => !/[\r\n]/.test(v), `${label} must be on one line`);

/** A newsletter's fields as the dashboard edits them (the server's rules and messages,
 * apps/newsletters/schemas.py). */
export const newsletterSchema = z.object({
  name: oneLine('Name', NEWSLETTER_NAME_MAX).refine((v) => v.length > 0, 'Name is required'),
  description: oneLine('Description', NEWSLETTER_TEXT_MAX),
  senderName: oneLine('Sender name', NEWSLETTER_NAME_MAX),
  replyTo: z
    .string()
    .trim()
    .refine((v) => v === '' || z.email().safeParse(v).success, 'Reply-to must be an email address'),
  footer: z.string().max(NEWSLETTER_TEXT_MAX, `Footer must be at most ${NEWSLETTER_TEXT_MAX} characters`),
  defaultOnSignup: z.boolean(),
  status: z.enum(['active', 'archived']),
});

export type NewsletterValues = z.infer<typeof newsletterSchema>;

export const NEWSLETTER_FIELDS = ['name', 'description', 'senderName', 'replyTo', 'footer', 'defaultOnSignup', 'status'] as const;

export function newsletterValues(newsletter?: Newsletter | null): NewsletterValues {
  return {
    name: newsletter?.name ?? '',
    description: newsletter?.description ?? '',
    senderName: newsletter?.senderName ?? '',
    replyTo: newsletter?.replyTo ?? '',
    footer: newsletter?.footer ?? '',
    defaultOnSignup: newsletter?.defaultOnSignup ?? true,
    status: newsletter?.status ?? 'active',
  };
}

/** What a save sends: the fields of the form, trimmed (a new newsletter is active: no status). */
export function newsletterBody(values: NewsletterValues): NewsletterBody {
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    senderName: values.senderName.trim(),
    replyTo: values.replyTo.trim(),
    footer: values.footer.trim(),
    defaultOnSignup: values.defaultOnSignup,
  };
}

export const STATUS_OPTIONS = [
  { value: 'active', label: 'Active' },
  { value: 'archived', label: 'Archived' },
];
