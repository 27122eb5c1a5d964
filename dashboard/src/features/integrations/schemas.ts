import { z } from 'zod';
import { NAME_MAX } from '@/api/integrations';

/** A new integration: its name (the server's messages, apps/integrations/schemas.py). */
export const integrationSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(NAME_MAX, `Name must be at most ${NAME_MAX} characters`),
});

export type IntegrationValues = z.infer<typeof integrationSchema>;
