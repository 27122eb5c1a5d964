import type { SendStatus } from '@/api/newsletters';
import { Badge } from '../Badge';

/** A send's status in words, and the colour of its badge. */
export const SEND_STATUS: Record<SendStatus, { text: string; tone: string }> = {
  scheduled: { text: 'Waiting for publication', tone: 'primary' },
  queued: { text: 'Queued', tone: 'warning' },
  sending: { text: 'Sending', tone: 'warning' },
  sent: { text: 'Sent', tone: 'success' },
  failed: { text: 'Failed', tone: 'danger' },
  cancelled: { text: 'Cancelled', tone: 'archived' },
};

export function SendStatusBadge({ status }: { status: SendStatus }) {
  return <Badge tone={SEND_STATUS[status].tone}>{SEND_STATUS[status].text}</Badge>;
}
