import { useState } from 'react';
import { Link } from 'react-router';
import { Mail, Send } from 'lucide-react';
import {
  members,
  NEWSLETTERS_PATH,
  sendInProgress,
  sendReportPath,
  useGetNewslettersQuery,
  useGetPostSendsQuery,
  type NewsletterSend,
} from '@/api/newsletters';
import type { Post } from '@/api/posts';
import { useCan } from '@/api/session';
import { CancelSendDialog } from '@/components/newsletters/CancelSendDialog';
import { SendStatusBadge } from '@/components/newsletters/SendStatusBadge';
import { Spinner } from '@/components/Spinner';
import { formatDateTime } from '@/lib/format';
import { POST, useKind } from '../../kinds';
import { activeNewsletters } from './sendSchema';
import { SendDialog } from './SendDialog';
import { TestEmailDialog } from './TestEmailDialog';

/** Reads the post's sends again every few seconds while one is queued or sending. */
function Polling({ postId }: { postId: string }) {
  useGetPostSendsQuery(postId, { pollingInterval: 3000 });
  return null;
}

function SendRow({ send, onCancel }: { send: NewsletterSend; onCancel: (send: NewsletterSend) => void }) {
  const to = send.label ? `${send.newsletter.name}, label ${send.label.name}` : send.newsletter.name;
  return (
    <li>
      <span className="revision-meta stack" style={{ gap: 2 }}>
        <strong className="break">{to}</strong>
        <span className="small muted">
          {send.status === 'scheduled' || send.status === 'cancelled' ? '' : `${members(send.recipients)}, `}
          {formatDateTime(send.finishedAt ?? send.startedAt ?? send.createdAt)}
        </span>
      </span>
      <SendStatusBadge status={send.status} />
      <Link className="btn btn-ghost btn-sm" to={sendReportPath(send.id)} aria-label={`Report of the send to ${to}`}>
        Report
      </Link>
      {send.status === 'scheduled' ? (
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => onCancel(send)} aria-label={`Cancel the send to ${to}`}>
          Cancel
        </button>
      ) : null}
    </li>
  );
}

function EmailCard({ post }: { post: Post }) {
  const sends = useGetPostSendsQuery(post.id, { refetchOnMountOrArgChange: true });
  const newsletters = useGetNewslettersQuery(undefined, { refetchOnMountOrArgChange: true });
  const [open, setOpen] = useState<'send' | 'test' | null>(null);
  const [cancelling, setCancelling] = useState<NewsletterSend | null>(null);
  const published = post.status === 'published';
  const scheduled = !published && post.isScheduled;
  const active = activeNewsletters(newsletters.data);
  const loaded = !!newsletters.data && !!sends.data;
  return (
    <section className="card card-body stack" aria-labelledby="email-title" data-testid="email-newsletter">
      <h2 id="email-title" className="card-title">
        Email newsletter
      </h2>
      <p className="small muted" style={{ margin: 0 }}>
        {published
          ? "Send this post by email to a newsletter's members."
          : scheduled
            ? `Scheduled${post.scheduledPublishDate ? ` for ${formatDateTime(post.scheduledPublishDate)}` : ''}: a send asked for now goes out when it publishes.`
            : 'Publish or schedule this post to send it by email. A test email works for drafts too.'}
      </p>
      {newsletters.isError || sends.isError ? <p className="small">Could not load the newsletters of this post.</p> : null}
      {!loaded && !(newsletters.isError || sends.isError) ? <Spinner small label="Loading the newsletters" /> : null}
      {sends.data?.length ? (
        <ul className="revision-list" aria-label="Sends of this post">
          {sends.data.map((send) => (
            <SendRow key={send.id} send={send} onCancel={setCancelling} />
          ))}
        </ul>
      ) : null}
      {sends.data?.some(sendInProgress) ? <Polling postId={post.id} /> : null}
      {loaded && !active.length ? (
        <p className="small" style={{ margin: 0 }}>
          No active newsletter. <Link to={NEWSLETTERS_PATH}>Settings → Newsletters</Link>
        </p>
      ) : null}
      {published || scheduled ? (
        <button type="button" className="btn btn-secondary" disabled={!loaded} onClick={() => setOpen('send')}>
          <Send size={16} aria-hidden="true" /> Send by email
        </button>
      ) : null}
      <button type="button" className="btn btn-ghost" disabled={!loaded || !active.length} onClick={() => setOpen('test')}>
        <Mail size={16} aria-hidden="true" /> Send a test email
      </button>
      {open === 'send' && loaded ? (
        <SendDialog post={post} newsletters={newsletters.data ?? []} sends={sends.data ?? []} onClose={() => setOpen(null)} />
      ) : null}
      {open === 'test' ? <TestEmailDialog postId={post.id} newsletters={active} onClose={() => setOpen(null)} /> : null}
      <CancelSendDialog send={cancelling} onClose={() => setCancelling(null)} />
    </section>
  );
}

/** The editor's "Email newsletter" card (a post, for editors and admins: newsletters.send): the
 * post's sends with their status, report and Cancel (a waiting one), "Send by email" once the post
 * is published or scheduled, and "Send a test email" to the signed-in user's own address. */
export function EmailPanel({ post }: { post: Post }) {
  const kind = useKind();
  const canSend = useCan('newsletters.send');
  if (kind !== POST || !canSend) return null;
  return <EmailCard post={post} />;
}
