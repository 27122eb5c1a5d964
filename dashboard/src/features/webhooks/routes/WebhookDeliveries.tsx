import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { RefreshCw, RotateCcw, Send } from 'lucide-react';
import { toast } from 'sonner';
import { PageHeader } from '@/components/PageHeader';
import { Pagination } from '@/components/Pagination';
import { Badge, EmptyState, ErrorState, LoadingState, Spinner } from '@/components/ui';
import {
  useGetDeliveriesQuery,
  useGetWebhooksQuery,
  useRedeliverMutation,
  useSendTestEventMutation,
  type WebhookDelivery,
} from '@/api/webhooks';
import { errorMessage } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { useAppSelector } from '@/lib/hooks';
import { selectUser } from '@/lib/session';
import { EndpointState } from './Webhooks';

const STATUS_TONE: Record<string, string> = { succeeded: 'success', failed: 'danger', pending: 'warning' };

/** Settings -> Webhooks -> an endpoint: its delivery log (newest first, paged) with Redeliver. */
export function WebhookDeliveries() {
  const { id = '' } = useParams();
  const isAdmin = useAppSelector(selectUser)?.role === 'admin';
  const [page, setPage] = useState(1);
  const endpoints = useGetWebhooksQuery(undefined, { skip: !isAdmin });
  const log = useGetDeliveriesQuery({ id, page }, { skip: !isAdmin });
  const [redeliver] = useRedeliverMutation();
  const [sendTest, { isLoading: testing }] = useSendTestEventMutation();
  const [busy, setBusy] = useState<string | null>(null);
  const endpoint = endpoints.data?.endpoints.find((e) => e.id === id);

  if (!isAdmin) {
    return (
      <>
        <PageHeader title="Delivery log" search={false} />
        <section className="card">
          <ErrorState title="Only administrators can manage webhooks." />
        </section>
      </>
    );
  }

  async function again(delivery: WebhookDelivery) {
    setBusy(delivery.id);
    try {
      await redeliver({ id, deliveryId: delivery.id }).unwrap();
      toast.success('Delivery queued again');
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to redeliver'));
    } finally {
      setBusy(null);
    }
  }

  async function test() {
    try {
      await sendTest(id).unwrap();
      toast.success('Test event queued');
      setPage(1);
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to send the test event'));
    }
  }

  const notFound = (log.isError && log.error && 'status' in log.error && log.error.status === 404) || (endpoints.data && !endpoint);
  const deliveries = log.data?.deliveries ?? [];
  return (
    <>
      <PageHeader
        title="Delivery log"
        description={endpoint ? <span className="break">{endpoint.url}</span> : undefined}
        search={false}
        iconButton={{ icon: <RefreshCw size={16} />, label: 'Refresh', onClick: () => void log.refetch() }}
        action={{ label: 'Send test event', icon: <Send size={16} />, onClick: () => void test(), disabled: testing || !endpoint }}
      />
      <p className="small muted" style={{ margin: 0 }}>
        <Link to="/dashboard/settings/webhooks">Back to webhooks</Link>
      </p>
      {endpoint ? (
        <section className="card row wrap" style={{ padding: '10px 14px' }} aria-label="Endpoint">
          <EndpointState endpoint={endpoint} />
          <span className="small muted">Failures in a row: {endpoint.consecutiveFailures}</span>
          <span className="small muted">Events: {endpoint.events.join(', ')}</span>
        </section>
      ) : null}
      <section className="card">
        {notFound ? (
          <ErrorState title="Webhook endpoint not found." />
        ) : log.isLoading ? (
          <LoadingState label="Loading deliveries..." />
        ) : log.isError ? (
          <ErrorState title="Failed to load the delivery log. Please try again." onRetry={() => void log.refetch()} />
        ) : deliveries.length === 0 ? (
          <EmptyState>No deliveries yet. Send a test event to try the endpoint.</EmptyState>
        ) : (
          <>
            <div className="table-wrap">
              <table className="table stack-table">
                <thead>
                  <tr>
                    <th>Event</th>
                    <th>Status</th>
                    <th>Response</th>
                    <th>Duration</th>
                    <th>Attempt</th>
                    <th>Time</th>
                    <th style={{ width: 120 }}>Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {deliveries.map((d) => (
                    <tr key={d.id}>
                      <td className="cell-primary">
                        <code>{d.event}</code>
                      </td>
                      <td data-label="Status">
                        <Badge tone={STATUS_TONE[d.status]}>{d.status}</Badge>
                      </td>
                      <td data-label="Response" className="small">
                        {d.responseStatus ?? '-'}
                        {d.responseExcerpt ? <div className="muted excerpt">{d.responseExcerpt}</div> : null}
                        {d.error ? <div className="text-danger">{d.error}</div> : null}
                      </td>
                      <td data-label="Duration" className="small">
                        {d.durationMs === null ? '-' : `${d.durationMs} ms`}
                      </td>
                      <td data-label="Attempt">{d.attempt}</td>
                      <td data-label="Time" className="small">
                        {formatDateTime(d.lastAttemptAt ?? d.createdAt)}
                      </td>
                      <td className="cell-actions">
                        <button
                          type="button"
                          className="btn btn-secondary btn-sm"
                          disabled={busy === d.id}
                          aria-label={`Redeliver ${d.event} of ${formatDateTime(d.createdAt)}`}
                          onClick={() => void again(d)}
                        >
                          {busy === d.id ? <Spinner small label="Sending" /> : <RotateCcw size={14} aria-hidden="true" />}
                          Redeliver
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pagination page={page} totalPages={log.data?.pagination.totalPages ?? 1} onChange={setPage} />
          </>
        )}
      </section>
    </>
  );
}
