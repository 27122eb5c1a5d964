import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { RefreshCw } from 'lucide-react';
import {
  members,
  NEWSLETTERS_PATH,
  sendInProgress,
  useGetSendReportQuery,
  type NewsletterSend,
  type SendReport as Report,
} from '@/api/newsletters';
import { useCan } from '@/api/session';
import { Card, CardRow } from '@/components/Card';
import { DataTable } from '@/components/DataTable';
import { PageHeader } from '@/components/PageHeader';
import { CancelSendDialog } from '@/components/newsletters/CancelSendDialog';
import { SendStatusBadge } from '@/components/newsletters/SendStatusBadge';
import { QueryState } from '@/components/QueryState';
import { formatDateTime, formatNumber } from '@/lib/format';

/** Reads the report again every few seconds while the send is queued or sending. */
function Polling({ id }: { id: string }) {
  useGetSendReportQuery(id, { pollingInterval: 3000 });
  return null;
}

const REASON_STATUS: Record<string, string> = { failed: 'Failed', bounced: 'Bounced', complained: 'Marked as spam', skipped: 'Skipped' };

function Counts({ report }: { report: Report }) {
  const { send, counts } = report;
  const waiting = send.status === 'scheduled' || send.status === 'cancelled';
  return (
    <Card title="Delivery" body="rows" aria-label="Delivery">
      <CardRow label="Recipients">{waiting ? <span className="muted">Counted when it starts</span> : members(send.recipients)}</CardRow>
      <CardRow label="Sent">{formatNumber(counts.delivered)}</CardRow>
      <CardRow label="Failed">{formatNumber(counts.failed)}</CardRow>
      <CardRow label="Bounced">{formatNumber(counts.bounced)}</CardRow>
      <CardRow label="Marked as spam">{formatNumber(counts.complained)}</CardRow>
      <CardRow label="Skipped (unsubscribed or turned off since)">{formatNumber(counts.skipped)}</CardRow>
      <CardRow label="Waiting">{formatNumber(counts.pending)}</CardRow>
    </Card>
  );
}

/** "2 members (67%)" of those the email reached. */
function share(n: number, delivered: number): string {
  return delivered > 0 ? `${members(n)} (${Math.round((n / delivered) * 100)}%)` : members(n);
}

/** Opens and clicks, when the send counted them (the company's setting when it started). */
function Engagement({ report }: { report: Report }) {
  const { tracking, counts, links } = report;
  const notCounted = <span className="muted">Not counted</span>;
  return (
    <>
      <Card title="Opens and clicks" body="rows" aria-label="Opens and clicks">
        <CardRow label="Opened">{tracking.opens ? share(counts.opened ?? 0, counts.delivered) : notCounted}</CardRow>
        <CardRow label="Clicked a link">{tracking.clicks ? share(counts.clicked ?? 0, counts.delivered) : notCounted}</CardRow>
        <p className="small muted" style={{ margin: '8px 0' }}>
          {tracking.opens || tracking.clicks
            ? 'Members, each counted once however many times. Opens are approximate: some mail apps load images on their own, others never.'
            : 'This send did not count opens or clicks: they were off in Settings → Newsletters when it started.'}
        </p>
      </Card>
      {tracking.clicks ? (
        <section className="card" aria-label="Most clicked links">
          <div className="card-header">
            <h2 className="card-title">Most clicked links</h2>
          </div>
          {links.length ? (
            <DataTable
              rows={links}
              rowKey={(l) => l.url}
              label="Most clicked links"
              columns={[
                { header: 'Link', primary: true, cell: (l) => <span className="break">{l.url}</span> },
                { header: 'Members', cell: (l) => formatNumber(l.members) },
                { header: 'Clicks', cell: (l) => formatNumber(l.clicks) },
              ]}
            />
          ) : (
            <p className="card-body muted" style={{ margin: 0 }}>
              No clicks yet.
            </p>
          )}
        </section>
      ) : null}
    </>
  );
}

function About({ send }: { send: NewsletterSend }) {
  return (
    <Card title="Send" body="rows" aria-label="Send">
      <CardRow label="Post">
        {send.postId ? <Link to={`/dashboard/posts/edit/${send.postId}`}>{send.postTitle}</Link> : `${send.postTitle} (deleted)`}
      </CardRow>
      <CardRow label="Newsletter">{send.newsletter.name}</CardRow>
      <CardRow label="To">{send.label ? `Members with the label ${send.label.name}` : 'All members of the newsletter'}</CardRow>
      <CardRow label="Subject">{send.subject}</CardRow>
      <CardRow label="Status">
        <SendStatusBadge status={send.status} />
      </CardRow>
      <CardRow label="Asked for">{formatDateTime(send.createdAt)}</CardRow>
      {send.startedAt ? <CardRow label="Started">{formatDateTime(send.startedAt)}</CardRow> : null}
      {send.finishedAt ? <CardRow label={send.status === 'cancelled' ? 'Cancelled' : 'Finished'}>{formatDateTime(send.finishedAt)}</CardRow> : null}
      {send.error ? <CardRow label="Error">{send.error}</CardRow> : null}
    </Card>
  );
}

/** /dashboard/settings/newsletters/sends/{id}: a send's report (every role: members.read): what
 * was sent to whom, how many emails were delivered, failed, bounced or skipped, and why. */
export function SendReport() {
  const { id = '' } = useParams();
  const canSend = useCan('newsletters.send');
  const report = useGetSendReportQuery(id, { skip: !id, refetchOnMountOrArgChange: true });
  const [cancelling, setCancelling] = useState<NewsletterSend | null>(null);
  const send = report.data?.send;
  return (
    <>
      <PageHeader
        title="Send report"
        description={send ? `${send.postTitle}, to ${send.newsletter.name}` : undefined}
        search={false}
        iconButton={{ icon: <RefreshCw size={16} />, label: 'Refresh', onClick: () => report.refetch() }}
      />
      <p className="small muted row wrap" style={{ margin: 0, gap: 12 }}>
        {send?.postId ? <Link to={`/dashboard/posts/edit/${send.postId}`}>Back to the post</Link> : null}
        <Link to={NEWSLETTERS_PATH}>Newsletters</Link>
      </p>
      {send && sendInProgress(send) ? <Polling id={id} /> : null}
      <QueryState query={report} boxed loading="Loading the report..." error="This send could not be loaded.">
        {(data) => (
          <>
            {data.send.status === 'scheduled' ? (
              <div className="notice notice-info row-between wrap" style={{ margin: 0 }}>
                <span>Will be sent when the post publishes.</span>
                {canSend ? (
                  <button type="button" className="btn btn-secondary btn-sm" onClick={() => setCancelling(data.send)}>
                    Cancel the send
                  </button>
                ) : null}
              </div>
            ) : null}
            <div className="grid-2" style={{ alignItems: 'start' }}>
              <About send={data.send} />
              <Counts report={data} />
            </div>
            <Engagement report={data} />
            <section className="card" aria-label="Reasons">
              <div className="card-header">
                <h2 className="card-title">Reasons of failures and bounces</h2>
              </div>
              {data.reasons.length ? (
                <DataTable
                  rows={data.reasons}
                  rowKey={(r) => `${r.status}:${r.reason}`}
                  label="Reasons"
                  columns={[
                    { header: 'Reason', primary: true, cell: (r) => <span className="break">{r.reason || 'No reason given'}</span> },
                    { header: 'What happened', cell: (r) => REASON_STATUS[r.status] ?? r.status },
                    { header: 'Emails', cell: (r) => formatNumber(r.count) },
                  ]}
                />
              ) : (
                <p className="card-body muted" style={{ margin: 0 }}>
                  None.
                </p>
              )}
            </section>
          </>
        )}
      </QueryState>
      <CancelSendDialog send={cancelling} onClose={() => setCancelling(null)} />
    </>
  );
}
