import { toast } from 'sonner';
import type { OutgoingKind } from '@/api/outgoing';
import { useGetOutgoingQuery, useRetryOutgoingEmailMutation } from '@/api/outgoing';
import { useCan } from '@/api/session';
import { Badge } from '@/components/Badge';
import { Card } from '@/components/Card';
import { QueryState } from '@/components/QueryState';
import { toastError } from '@/components/notify';
import { formatDateTime } from '@/lib/format';

function counts(kind: OutgoingKind): string {
  const parts = [
    kind.sending ? `${kind.sending} being sent` : '',
    kind.waiting ? `${kind.waiting} waiting to try again` : '',
    kind.stuck ? `${kind.stuck} stuck` : '',
  ].filter(Boolean);
  return parts.join(', ');
}

/** Admins: what waits to leave for the company (emails, webhook deliveries, ...) and its emails that
 *  failed or are stuck, each with Send again. Webhook deliveries keep their own log (Webhooks). */
export function OutgoingMessages() {
  const canManage = useCan('settings.manage');
  const outgoing = useGetOutgoingQuery(undefined, { skip: !canManage });
  const [retry, { isLoading: sending }] = useRetryOutgoingEmailMutation();

  if (!canManage) return null;

  async function sendAgain(id: string) {
    try {
      const reply = await retry(id).unwrap();
      toast.success(reply.message || 'Queued');
    } catch (err) {
      toastError(err, 'Could not send the email again');
    }
  }

  return (
    <Card title="Outgoing messages" titleId="outgoing-messages" style={{ marginTop: 16 }} aria-labelledby="outgoing-messages">
      <QueryState query={outgoing} compact loading="Loading outgoing messages" error="Failed to load outgoing messages">
        {(data) => {
          const stuck = data.kinds.some((kind) => kind.stuck > 0);
          return (
            <>
              {data.kinds.length === 0 ? (
                <p className="muted" style={{ margin: 0 }} role="status">
                  Nothing is waiting to be sent.
                </p>
              ) : (
                <ul style={{ margin: 0, paddingLeft: 20 }} role="status">
                  {data.kinds.map((kind) => (
                    <li key={kind.kind}>
                      <strong>{kind.label}</strong>: {counts(kind)}
                    </li>
                  ))}
                </ul>
              )}
              {stuck ? (
                <p style={{ margin: 0 }}>
                  Stuck messages could not be handed to the sending service for a while. Nothing is lost: they are sent as
                  soon as it is back.
                </p>
              ) : null}
              {data.emails.length > 0 ? (
                <ul style={{ margin: 0, padding: 0, listStyle: 'none' }} className="stack" aria-label="Emails not sent">
                  {data.emails.map((email) => (
                    <li key={email.id} className="row" style={{ gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>
                      <Badge tone={email.status === 'failed' ? 'danger' : 'warning'}>
                        {email.status === 'failed' ? 'Failed' : 'Stuck'}
                      </Badge>
                      <span style={{ overflowWrap: 'anywhere' }}>
                        {email.subject} to {email.to}
                      </span>
                      <span className="muted">
                        {formatDateTime(email.createdAt)}, {email.attempts} {email.attempts === 1 ? 'try' : 'tries'}
                        {email.lastError ? `: ${email.lastError}` : ''}
                      </span>
                      <button
                        type="button"
                        className="btn btn-secondary btn-sm"
                        disabled={sending}
                        onClick={() => void sendAgain(email.id)}
                        aria-label={`Send again: ${email.subject} to ${email.to}`}
                      >
                        Send again
                      </button>
                    </li>
                  ))}
                </ul>
              ) : null}
            </>
          );
        }}
      </QueryState>
    </Card>
  );
}
