import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { History, KeyRound, Pencil, Plus, RefreshCw, Send, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { PageHeader } from '@/components/PageHeader';
import { RowMenu } from '@/components/RowMenu';
import { Badge, ConfirmDialog, EmptyState, ErrorState, LoadingState } from '@/components/ui';
import {
  useCreateWebhookMutation,
  useDeleteWebhookMutation,
  useGetWebhooksQuery,
  useRotateWebhookSecretMutation,
  useSendTestEventMutation,
  useUpdateWebhookMutation,
  type EndpointBody,
  type WebhookEndpoint,
} from '@/api/webhooks';
import { errorMessage } from '@/lib/errors';
import { useAppSelector } from '@/lib/hooks';
import { selectUser } from '@/lib/session';
import { EndpointForm } from '../components/EndpointForm';
import { SecretDialog } from '../components/SecretDialog';

/** Active, off by an admin, or turned off by failures (with the reason). */
export function EndpointState({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (endpoint.active) return <Badge tone="success">Active</Badge>;
  return (
    <span className="stack" style={{ gap: 4, alignItems: 'flex-start' }}>
      <Badge tone="danger">Disabled</Badge>
      {endpoint.disabledReason ? <span className="small text-danger">{endpoint.disabledReason}</span> : null}
    </span>
  );
}

/** Settings -> Webhooks (admins): the company's endpoints. */
export function Webhooks() {
  const isAdmin = useAppSelector(selectUser)?.role === 'admin';
  const navigate = useNavigate();
  const { data, isLoading, isError, refetch } = useGetWebhooksQuery(undefined, { skip: !isAdmin });
  const [create, { isLoading: creating }] = useCreateWebhookMutation();
  const [update, { isLoading: updating }] = useUpdateWebhookMutation();
  const [remove, { isLoading: deleting }] = useDeleteWebhookMutation();
  const [rotate, { isLoading: rotating }] = useRotateWebhookSecretMutation();
  const [sendTest] = useSendTestEventMutation();
  const [editing, setEditing] = useState<WebhookEndpoint | 'new' | null>(null);
  const [deletingOne, setDeletingOne] = useState<WebhookEndpoint | null>(null);
  const [rotatingOne, setRotatingOne] = useState<WebhookEndpoint | null>(null);
  const [secret, setSecret] = useState<string | null>(null);

  if (!isAdmin) {
    return (
      <>
        <PageHeader title="Webhooks" search={false} />
        <section className="card">
          <ErrorState title="Only administrators can manage webhooks." />
        </section>
      </>
    );
  }

  async function save(body: EndpointBody) {
    if (editing === 'new') {
      const reply = await create(body).unwrap();
      setEditing(null);
      toast.success(reply.message || 'Webhook endpoint created');
      if (reply.endpoint.secret) setSecret(reply.endpoint.secret);
    } else if (editing) {
      const reply = await update({ id: editing.id, body }).unwrap();
      setEditing(null);
      toast.success(reply.message || 'Webhook endpoint updated');
    }
  }

  async function confirmDelete() {
    if (!deletingOne) return;
    try {
      const reply = await remove(deletingOne.id).unwrap();
      toast.success(reply.message || 'Webhook endpoint deleted');
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to delete the endpoint'));
    } finally {
      setDeletingOne(null);
    }
  }

  async function confirmRotate() {
    if (!rotatingOne) return;
    try {
      const reply = await rotate(rotatingOne.id).unwrap();
      toast.success(reply.message || 'Signing secret rotated');
      if (reply.endpoint.secret) setSecret(reply.endpoint.secret);
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to rotate the secret'));
    } finally {
      setRotatingOne(null);
    }
  }

  async function test(endpoint: WebhookEndpoint) {
    try {
      await sendTest(endpoint.id).unwrap();
      toast.success('Test event queued. See the delivery log.');
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to send the test event'));
    }
  }

  const endpoints = data?.endpoints ?? [];
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Tell your website when content changes, so it can rebuild"
        search={false}
        iconButton={{ icon: <RefreshCw size={16} />, label: 'Refresh', onClick: () => refetch() }}
        action={{ label: 'Add endpoint', icon: <Plus size={16} />, onClick: () => setEditing('new'), disabled: isLoading || isError }}
      />
      <p className="small muted" style={{ margin: 0 }}>
        <Link to="/dashboard/settings">Back to settings</Link>
      </p>
      <section className="card">
        {isLoading ? (
          <LoadingState label="Loading webhooks..." />
        ) : isError ? (
          <ErrorState title="Failed to load webhooks. Please try again." onRetry={() => refetch()} />
        ) : endpoints.length === 0 ? (
          <EmptyState
            action={
              <button type="button" className="btn btn-primary" onClick={() => setEditing('new')}>
                <Plus size={16} />
                Add endpoint
              </button>
            }
          >
            No webhook endpoints yet. Add one to be told when posts, categories, tags or media change.
          </EmptyState>
        ) : (
          <div className="table-wrap">
            <table className="table stack-table">
              <thead>
                <tr>
                  <th>URL</th>
                  <th>Events</th>
                  <th>Status</th>
                  <th>Failures in a row</th>
                  <th style={{ width: 80 }}>Actions</th>
                </tr>
              </thead>
              <tbody>
                {endpoints.map((endpoint) => (
                  <tr key={endpoint.id}>
                    <td className="cell-primary">
                      <Link to={`/dashboard/settings/webhooks/${endpoint.id}`} className="break">
                        {endpoint.url}
                      </Link>
                      {endpoint.description ? <div className="small muted">{endpoint.description}</div> : null}
                    </td>
                    <td data-label="Events" className="small">
                      {endpoint.events.join(', ')}
                    </td>
                    <td data-label="Status">
                      <EndpointState endpoint={endpoint} />
                    </td>
                    <td data-label="Failures in a row">{endpoint.consecutiveFailures}</td>
                    <td className="cell-actions">
                      <RowMenu
                        label={`Actions for ${endpoint.url}`}
                        items={[
                          { label: 'Edit', icon: <Pencil size={14} />, onSelect: () => setEditing(endpoint) },
                          { label: 'Send test event', icon: <Send size={14} />, onSelect: () => void test(endpoint) },
                          {
                            label: 'Delivery log',
                            icon: <History size={14} />,
                            onSelect: () => navigate(`/dashboard/settings/webhooks/${endpoint.id}`),
                          },
                          { label: 'Rotate secret', icon: <KeyRound size={14} />, onSelect: () => setRotatingOne(endpoint) },
                          { label: 'Delete', icon: <Trash2 size={14} />, danger: true, onSelect: () => setDeletingOne(endpoint) },
                        ]}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <EndpointForm
        open={editing !== null}
        endpoint={editing === 'new' ? null : editing}
        events={data?.events ?? []}
        busy={creating || updating}
        onCancel={() => setEditing(null)}
        onSave={save}
      />
      <ConfirmDialog open={!!deletingOne} title="Delete endpoint" busy={deleting} onCancel={() => setDeletingOne(null)} onConfirm={confirmDelete}>
        <p style={{ margin: 0 }}>
          Delete <strong className="break">{deletingOne?.url}</strong> and its delivery log? Its events stop at once. This cannot be undone.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={!!rotatingOne}
        title="Rotate secret"
        confirmLabel="Rotate"
        busy={rotating}
        onCancel={() => setRotatingOne(null)}
        onConfirm={confirmRotate}
      >
        <p style={{ margin: 0 }}>
          The current secret of <strong className="break">{rotatingOne?.url}</strong> stops working at once. Update your receiver with the new one.
        </p>
      </ConfirmDialog>
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
    </>
  );
}
