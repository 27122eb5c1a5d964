import { useState } from 'react';
import { Link } from 'react-router';
import { KeyRound, Plus, RefreshCw, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import {
  useCreateIntegrationMutation,
  useDeleteIntegrationMutation,
  useGetIntegrationsQuery,
  useRotateIntegrationMutation,
  type Integration,
  type IntegrationKey,
} from '@/api/integrations';
import { useCapabilities } from '@/api/session';
import { Badge } from '@/components/Badge';
import { Card } from '@/components/Card';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { CopyField } from '@/components/CopyField';
import { DataTable, type Column } from '@/components/DataTable';
import { ErrorState } from '@/components/ErrorState';
import { LoadingState } from '@/components/LoadingState';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { RowMenu } from '@/components/RowMenu';
import { toastError } from '@/components/notify';
import { useConfirmAction } from '@/components/useConfirmAction';
import { errorMessage } from '@/lib/errors';
import { formatDate } from '@/lib/format';
import { CreateDialog } from '../components/CreateDialog';
import { KeysDialog } from '../components/KeysDialog';
import { RotateDialog } from '../components/RotateDialog';
import type { IntegrationValues } from '../schemas';

const TITLE = 'Integrations';
const STATES = {
  loading: 'Loading integrations...',
  error: 'Failed to load integrations. Please try again.',
  empty: 'No integrations yet. Add one for each tool that publishes here.',
};

function Back() {
  return (
    <p className="small muted" style={{ margin: 0 }}>
      <Link to="/dashboard/settings">Back to settings</Link>
    </p>
  );
}

/** A key as far as it is kept visible: its last four digits. */
function Hint({ hint }: { hint: string }) {
  return (
    <span>
      ends in <span className="mono">{hint}</span>
    </span>
  );
}

function AdminKey({ integration }: { integration: Integration }) {
  if (!integration.adminKeyId) return <span className="muted">None yet: rotate its Admin API key to make one</span>;
  return (
    <span className="stack" style={{ gap: 2 }}>
      <span className="mono break small">{integration.adminKeyId}</span>
      {integration.adminKeyHint ? (
        <span className="small">
          secret <Hint hint={integration.adminKeyHint} />
        </span>
      ) : null}
    </span>
  );
}

/** Settings → Integrations (admins: integrations.manage): the tools that publish here, each with its
 * Content API and Admin API keys, shown once when made or rotated; the API URL they ask for. */
export function Integrations() {
  const { capabilities, ready } = useCapabilities();
  const allowed = capabilities.has('integrations.manage');
  const list = useGetIntegrationsQuery(undefined, { skip: !allowed });
  const [create, { isLoading: creating }] = useCreateIntegrationMutation();
  const [rotate, { isLoading: rotatingNow }] = useRotateIntegrationMutation();
  const [remove] = useDeleteIntegrationMutation();
  const [adding, setAdding] = useState(false);
  const [rotating, setRotating] = useState<Integration | null>(null);
  const [shown, setShown] = useState<{ integration: Integration; rotated: boolean } | null>(null);
  const deleting = useConfirmAction((integration: Integration) => remove(integration.id).unwrap(), {
    done: 'Integration deleted',
    failed: (err) => errorMessage(err, 'Failed to delete the integration'),
  });

  if (!ready) return <LoadingState />;
  if (!allowed) {
    return (
      <>
        <PageHeader title={TITLE} search={false} />
        <Back />
        <section className="card">
          <ErrorState title="Only administrators can manage integrations." />
        </section>
      </>
    );
  }

  const ghostUrl = list.data?.ghostUrl ?? '';

  async function onCreate(values: IntegrationValues) {
    const reply = await create({ name: values.name.trim() }).unwrap();
    setAdding(false);
    toast.success(reply.message || 'Integration created');
    setShown({ integration: reply.integration, rotated: false });
  }

  async function onRotate(keys: IntegrationKey[]) {
    if (!rotating) return;
    try {
      const reply = await rotate({ id: rotating.id, keys }).unwrap();
      toast.success(reply.message || 'Keys rotated');
      setShown({ integration: reply.integration, rotated: true });
    } catch (err) {
      toastError(err, 'Failed to rotate the keys');
    } finally {
      setRotating(null);
    }
  }

  const columns: Column<Integration>[] = [
    {
      header: 'Name',
      primary: true,
      cell: (integration) => (
        <span className="row wrap" style={{ gap: 6 }}>
          <strong className="break">{integration.name}</strong>
          {integration.companyKey ? <Badge tone="primary">Your website's key</Badge> : null}
        </span>
      ),
    },
    { header: 'Content API key', cell: (integration) => <Hint hint={integration.contentKeyHint} /> },
    { header: 'Admin API key', cell: (integration) => <AdminKey integration={integration} /> },
    { header: 'Created', className: 'small', cell: (integration) => formatDate(integration.createdAt) },
    {
      header: <span className="sr-only">Actions</span>,
      label: 'Actions',
      actions: true,
      width: 60,
      cell: (integration) => (
        <RowMenu
          label={`Actions for ${integration.name}`}
          items={[
            { label: 'Rotate keys', icon: <KeyRound size={14} />, onSelect: () => setRotating(integration) },
            { label: 'Delete', icon: <Trash2 size={14} />, danger: true, onSelect: () => deleting.ask(integration) },
          ]}
        />
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title={TITLE}
        description="Connect the tools that publish here (iA Writer, Ulysses, Zapier, n8n), each with its own keys"
        search={false}
        iconButton={{ icon: <RefreshCw size={16} />, label: 'Refresh', onClick: () => list.refetch() }}
        action={{ label: 'Add integration', icon: <Plus size={16} />, onClick: () => setAdding(true), disabled: list.isLoading || list.isError }}
      />
      <Back />
      <Card title="Connect a tool">
        <p style={{ margin: 0 }}>
          A tool that publishes to Ghost asks for two things: the API URL below, and an integration's Admin API key. Add an
          integration for each tool: its keys are shown once, when it is made.
        </p>
        {ghostUrl ? <CopyField label="API URL" value={ghostUrl} hint="The Ghost URL, site URL or API URL of the tool's settings. Choose Ghost 5 (v5.0) where a version is asked." /> : null}
      </Card>
      <section className="card" aria-label="Integrations">
        <QueryState
          query={list}
          {...STATES}
          isEmpty={(data) => data.integrations.length === 0}
          emptyAction={
            <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
              <Plus size={16} /> Add integration
            </button>
          }
        >
          {(data) => <DataTable rows={data.integrations} rowKey={(integration) => integration.id} columns={columns} label="Integrations" />}
        </QueryState>
      </section>
      {adding ? <CreateDialog busy={creating} onCancel={() => setAdding(false)} onCreate={onCreate} /> : null}
      <RotateDialog integration={rotating} busy={rotatingNow} onCancel={() => setRotating(null)} onRotate={(keys) => void onRotate(keys)} />
      <KeysDialog integration={shown?.integration ?? null} rotated={shown?.rotated} ghostUrl={ghostUrl} onClose={() => setShown(null)} />
      <ConfirmDialog title="Delete integration" {...deleting.dialog}>
        <p style={{ margin: 0 }}>
          Delete <strong className="break">{deleting.item?.name}</strong>? Its keys stop working at once: the tools using them can no
          longer publish. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
