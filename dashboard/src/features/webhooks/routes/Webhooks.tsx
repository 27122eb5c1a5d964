import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { History, KeyRound, Pencil, Plus, RefreshCw, Send, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
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
import { useFeatureEnabled } from '@/api/company';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { FeatureOff } from '@/components/FeatureOff';
import { DataTable, type Column } from '@/components/DataTable';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { RowMenu } from '@/components/RowMenu';
import { toastError } from '@/components/notify';
import { useConfirmAction } from '@/components/useConfirmAction';
import { errorMessage } from '@/lib/errors';
import { useAppSelector } from '@/lib/hooks';
import { selectUser } from '@/lib/session';
import { AdminsOnly, EndpointState } from '../components/EndpointState';
import { EndpointForm } from '../components/EndpointForm';
import { SecretDialog } from '../components/SecretDialog';

const STATES = {
  loading: 'Loading webhooks...',
  error: 'Failed to load webhooks. Please try again.',
  empty: 'No webhook endpoints yet. Add one to be told when posts, categories, tags or media change.',
};

/** Settings -> Webhooks (admins): the company's endpoints. */
export function Webhooks() {
  const isAdmin = useAppSelector(selectUser)?.role === 'admin';
  const navigate = useNavigate();
  const webhooks = useGetWebhooksQuery(undefined, { skip: !isAdmin });
  const [create, { isLoading: creating }] = useCreateWebhookMutation();
  const [update, { isLoading: updating }] = useUpdateWebhookMutation();
  const [remove] = useDeleteWebhookMutation();
  const [rotate] = useRotateWebhookSecretMutation();
  const [sendTest] = useSendTestEventMutation();
  // Without the plan's webhooks the endpoints stay readable and deletable; nothing else is offered.
  const included = useFeatureEnabled('webhooks');
  const [editing, setEditing] = useState<WebhookEndpoint | 'new' | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const deleting = useConfirmAction((endpoint: WebhookEndpoint) => remove(endpoint.id).unwrap(), {
    done: 'Webhook endpoint deleted',
    failed: (err) => errorMessage(err, 'Failed to delete the endpoint'),
  });
  const rotating = useConfirmAction((endpoint: WebhookEndpoint) => rotate(endpoint.id).unwrap(), {
    done: 'Signing secret rotated',
    failed: (err) => errorMessage(err, 'Failed to rotate the secret'),
    then: (reply) => {
      if (reply.endpoint.secret) setSecret(reply.endpoint.secret);
    },
  });

  if (!isAdmin) return <AdminsOnly title="Webhooks" />;

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

  async function test(endpoint: WebhookEndpoint) {
    try {
      await sendTest(endpoint.id).unwrap();
      toast.success('Test event queued. See the delivery log.');
    } catch (err) {
      toastError(err, 'Failed to send the test event');
    }
  }

  const columns: Column<WebhookEndpoint>[] = [
    {
      header: 'URL',
      primary: true,
      cell: (endpoint) => (
        <>
          <Link to={`/dashboard/settings/webhooks/${endpoint.id}`} className="break">
            {endpoint.url}
          </Link>
          {endpoint.description ? <div className="small muted">{endpoint.description}</div> : null}
        </>
      ),
    },
    { header: 'Events', className: 'small', cell: (endpoint) => endpoint.events.join(', ') },
    { header: 'Status', cell: (endpoint) => <EndpointState endpoint={endpoint} /> },
    { header: 'Failures in a row', cell: (endpoint) => endpoint.consecutiveFailures },
    {
      header: 'Actions',
      actions: true,
      width: 80,
      cell: (endpoint) => (
        <RowMenu
          label={`Actions for ${endpoint.url}`}
          items={[
            ...(included
              ? [
                  { label: 'Edit', icon: <Pencil size={14} />, onSelect: () => setEditing(endpoint) },
                  { label: 'Send test event', icon: <Send size={14} />, onSelect: () => void test(endpoint) },
                ]
              : []),
            { label: 'Delivery log', icon: <History size={14} />, onSelect: () => navigate(`/dashboard/settings/webhooks/${endpoint.id}`) },
            ...(included ? [{ label: 'Rotate secret', icon: <KeyRound size={14} />, onSelect: () => rotating.ask(endpoint) }] : []),
            { label: 'Delete', icon: <Trash2 size={14} />, danger: true, onSelect: () => deleting.ask(endpoint) },
          ]}
        />
      ),
    },
  ];

  const addEndpoint = (
    <button type="button" className="btn btn-primary" onClick={() => setEditing('new')} disabled={!included}>
      <Plus size={16} />
      Add endpoint
    </button>
  );
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Tell your website when content changes, so it can rebuild"
        search={false}
        iconButton={{ icon: <RefreshCw size={16} />, label: 'Refresh', onClick: () => webhooks.refetch() }}
        action={{ label: 'Add endpoint', icon: <Plus size={16} />, onClick: () => setEditing('new'), disabled: webhooks.isLoading || webhooks.isError || !included }}
      />
      <p className="small muted" style={{ margin: 0 }}>
        <Link to="/dashboard/settings">Back to settings</Link>
      </p>
      <FeatureOff feature="webhooks" />
      <section className="card">
        <QueryState query={webhooks} {...STATES} isEmpty={(list) => list.endpoints.length === 0} emptyAction={addEndpoint}>
          {(list) => <DataTable rows={list.endpoints} rowKey={(endpoint) => endpoint.id} columns={columns} />}
        </QueryState>
      </section>
      <EndpointForm
        open={editing !== null}
        endpoint={editing === 'new' ? null : editing}
        events={webhooks.data?.events ?? []}
        busy={creating || updating}
        onCancel={() => setEditing(null)}
        onSave={save}
      />
      <ConfirmDialog title="Delete endpoint" {...deleting.dialog}>
        <p style={{ margin: 0 }}>
          Delete <strong className="break">{deleting.item?.url}</strong> and its delivery log? Its events stop at once. This cannot be undone.
        </p>
      </ConfirmDialog>
      <ConfirmDialog title="Rotate secret" confirmLabel="Rotate" {...rotating.dialog}>
        <p style={{ margin: 0 }}>
          The current secret of <strong className="break">{rotating.item?.url}</strong> stops working at once. Update your receiver with the new one.
        </p>
      </ConfirmDialog>
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
    </>
  );
}
