import type { WebhookEndpoint } from '@/api/webhooks';
import { Badge } from '@/components/Badge';
import { ErrorState } from '@/components/ErrorState';
import { PageHeader } from '@/components/PageHeader';

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

/** The webhook screens for anyone but an admin. */
export function AdminsOnly({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} search={false} />
      <section className="card">
        <ErrorState title="Only administrators can manage webhooks." />
      </section>
    </>
  );
}
