import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { RefreshCw, RotateCcw, Send } from 'lucide-react';
import { toast } from 'sonner';
import {
  useGetDeliveriesQuery,
  useGetWebhooksQuery,
  useRedeliverMutation,
  useSendTestEventMutation,
  type WebhookDelivery,
} from '@/api/webhooks';
import { useFeatureEnabled } from '@/api/company';
import { Badge } from '@/components/Badge';
import { DataTable, type Column } from '@/components/DataTable';
import { ErrorState } from '@/components/ErrorState';
import { FeatureOff } from '@/components/FeatureOff';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { Spinner } from '@/components/Spinner';
import { toastError } from '@/components/notify';
import { isApiError } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { useAppSelector } from '@/lib/hooks';
import { selectUser } from '@/lib/session';
import { AdminsOnly, EndpointState } from '../components/EndpointState';

const STATUS_TONE: Record<string, string> = { succeeded: 'success', failed: 'danger', pending: 'warning' };
const STATES = {
  loading: 'Loading deliveries...',
  error: 'Failed to load the delivery log. Please try again.',
  empty: 'No deliveries yet. Send a test event to try the endpoint.',
};

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
  // Without the plan's webhooks the log stays readable; nothing is sent again.
  const included = useFeatureEnabled('webhooks');
  const endpoint = endpoints.data?.endpoints.find((e) => e.id === id);

  if (!isAdmin) return <AdminsOnly title="Delivery log" />;

  async function again(delivery: WebhookDelivery) {
    setBusy(delivery.id);
    try {
      await redeliver({ id, deliveryId: delivery.id }).unwrap();
      toast.success('Delivery queued again');
    } catch (err) {
      toastError(err, 'Failed to redeliver');
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
      toastError(err, 'Failed to send the test event');
    }
  }

  const columns: Column<WebhookDelivery>[] = [
    { header: 'Event', primary: true, cell: (d) => <code>{d.event}</code> },
    { header: 'Status', cell: (d) => <Badge tone={STATUS_TONE[d.status]}>{d.status}</Badge> },
    {
      header: 'Response',
      className: 'small',
      cell: (d) => (
        <>
          {d.responseStatus ?? '-'}
          {d.responseExcerpt ? <div className="muted excerpt">{d.responseExcerpt}</div> : null}
          {d.error ? <div className="text-danger">{d.error}</div> : null}
        </>
      ),
    },
    { header: 'Duration', className: 'small', cell: (d) => (d.durationMs === null ? '-' : `${d.durationMs} ms`) },
    { header: 'Attempt', cell: (d) => d.attempt },
    { header: 'Time', className: 'small', cell: (d) => formatDateTime(d.lastAttemptAt ?? d.createdAt) },
    {
      header: 'Actions',
      actions: true,
      width: 120,
      cell: (d) => (
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={busy === d.id || !included}
          aria-label={`Redeliver ${d.event} of ${formatDateTime(d.createdAt)}`}
          onClick={() => void again(d)}
        >
          {busy === d.id ? <Spinner small label="Sending" /> : <RotateCcw size={14} aria-hidden="true" />}
          Redeliver
        </button>
      ),
    },
  ];

  const notFound = (log.isError && isApiError(log.error) && log.error.status === 404) || (endpoints.data && !endpoint);
  return (
    <>
      <PageHeader
        title="Delivery log"
        description={endpoint ? <span className="break">{endpoint.url}</span> : undefined}
        search={false}
        iconButton={{ icon: <RefreshCw size={16} />, label: 'Refresh', onClick: () => void log.refetch() }}
        action={{ label: 'Send test event', icon: <Send size={16} />, onClick: () => void test(), disabled: testing || !endpoint || !included }}
      />
      <p className="small muted" style={{ margin: 0 }}>
        <Link to="/dashboard/settings/webhooks">Back to webhooks</Link>
      </p>
      <FeatureOff feature="webhooks" />
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
        ) : (
          <QueryState query={log} {...STATES} isEmpty={(data) => data.deliveries.length === 0}>
            {(data) => (
              <DataTable
                rows={data.deliveries}
                rowKey={(d) => d.id}
                columns={columns}
                pages={{ page, totalPages: data.pagination.totalPages, onChange: setPage }}
              />
            )}
          </QueryState>
        )}
      </section>
    </>
  );
}
