import { useState } from 'react';
import { Link } from 'react-router';
import { Archive, ArchiveRestore, Pencil, Plus, RefreshCw } from 'lucide-react';
import { toast } from 'sonner';
import {
  members,
  useCreateNewsletterMutation,
  useGetNewslettersQuery,
  useUpdateNewsletterMutation,
  type Newsletter,
} from '@/api/newsletters';
import { useCapabilities } from '@/api/session';
import { Badge } from '@/components/Badge';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { DataTable, type Column } from '@/components/DataTable';
import { ErrorState } from '@/components/ErrorState';
import { LoadingState } from '@/components/LoadingState';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { RowMenu } from '@/components/RowMenu';
import { toastError } from '@/components/notify';
import { useConfirmAction } from '@/components/useConfirmAction';
import { errorMessage } from '@/lib/errors';
import { NewsletterDialog } from '../components/NewsletterDialog';
import { TrackingSettings } from '../components/TrackingSettings';
import { newsletterBody, type NewsletterValues } from '../schemas';

const TITLE = 'Newsletters';
const STATES = {
  loading: 'Loading newsletters...',
  error: 'Failed to load newsletters. Please try again.',
  empty: 'No newsletters yet.',
};

function Back() {
  return (
    <p className="small muted" style={{ margin: 0 }}>
      <Link to="/dashboard/settings">Back to settings</Link>
    </p>
  );
}

function Sender({ newsletter }: { newsletter: Newsletter }) {
  return (
    <span className="stack" style={{ gap: 2 }}>
      <span className="break">{newsletter.senderName || <span className="muted">The site's title</span>}</span>
      {newsletter.replyTo ? <span className="small muted break">Replies to {newsletter.replyTo}</span> : null}
    </span>
  );
}

/** Settings → Newsletters: the lists members subscribe to, with their members; editors and admins
 * (newsletters.manage) add them, edit them and archive them; the other roles read them. */
export function Newsletters() {
  const { capabilities, ready } = useCapabilities();
  const allowed = capabilities.has('members.read');
  const canManage = capabilities.has('newsletters.manage');
  // Members change elsewhere (the members screens, sign-ups): counted again on each visit.
  const list = useGetNewslettersQuery(undefined, { skip: !allowed, refetchOnMountOrArgChange: true });
  const [create, { isLoading: creating }] = useCreateNewsletterMutation();
  const [update, { isLoading: updating }] = useUpdateNewsletterMutation();
  const [editing, setEditing] = useState<Newsletter | 'new' | null>(null);
  const archiving = useConfirmAction((n: Newsletter) => update({ id: n.id, body: { status: 'archived' } }).unwrap(), {
    done: 'Newsletter archived',
    failed: (err) => errorMessage(err, 'Failed to archive the newsletter'),
  });

  if (!ready) return <LoadingState />;
  if (!allowed) {
    return (
      <>
        <PageHeader title={TITLE} search={false} />
        <Back />
        <section className="card">
          <ErrorState title="You don't have permission to see newsletters." />
        </section>
      </>
    );
  }

  async function save(values: NewsletterValues) {
    if (editing === 'new') {
      const reply = await create(newsletterBody(values)).unwrap();
      toast.success(reply.message || 'Newsletter created');
    } else if (editing) {
      const reply = await update({ id: editing.id, body: { ...newsletterBody(values), status: values.status } }).unwrap();
      toast.success(reply.message || 'Newsletter updated');
    }
    setEditing(null);
  }

  async function restore(newsletter: Newsletter) {
    try {
      await update({ id: newsletter.id, body: { status: 'active' } }).unwrap();
      toast.success(`${newsletter.name} is active again`);
    } catch (err) {
      toastError(err, 'Failed to make the newsletter active');
    }
  }

  const columns: Column<Newsletter>[] = [
    {
      header: 'Name',
      primary: true,
      cell: (n) => (
        <span className="stack" style={{ gap: 4 }}>
          <span className="row wrap" style={{ gap: 6 }}>
            <strong className="break">{n.name}</strong>
            {n.defaultOnSignup && n.status === 'active' ? <Badge tone="primary">New readers join</Badge> : null}
          </span>
          {n.description ? <span className="small muted break">{n.description}</span> : null}
        </span>
      ),
    },
    { header: 'Members', cell: (n) => members(n.members) },
    { header: 'Sender', cell: (n) => <Sender newsletter={n} /> },
    { header: 'Status', cell: (n) => <Badge tone={n.status}>{n.status === 'active' ? 'Active' : 'Archived'}</Badge> },
    ...(canManage
      ? [
          {
            header: <span className="sr-only">Actions</span>,
            label: 'Actions',
            actions: true,
            width: 60,
            cell: (n: Newsletter) => (
              <RowMenu
                label={`Actions for ${n.name}`}
                items={[
                  { label: 'Edit', icon: <Pencil size={14} />, onSelect: () => setEditing(n) },
                  n.status === 'active'
                    ? { label: 'Archive', icon: <Archive size={14} />, danger: true, onSelect: () => archiving.ask(n) }
                    : { label: 'Make active', icon: <ArchiveRestore size={14} />, onSelect: () => void restore(n) },
                ]}
              />
            ),
          },
        ]
      : []),
  ];

  return (
    <>
      <PageHeader
        title={TITLE}
        description="The lists your members subscribe to: posts are sent to them by email"
        search={false}
        iconButton={{ icon: <RefreshCw size={16} />, label: 'Refresh', onClick: () => list.refetch() }}
        action={
          canManage
            ? { label: 'Add newsletter', icon: <Plus size={16} />, onClick: () => setEditing('new'), disabled: list.isLoading || list.isError }
            : undefined
        }
      />
      <Back />
      {canManage ? null : (
        <p className="notice notice-info" style={{ margin: 0 }}>
          Your role can read newsletters, not change them.
        </p>
      )}
      <section className="card" aria-label="Newsletters">
        <QueryState query={list} {...STATES} isEmpty={(data) => data.length === 0}>
          {(data) => <DataTable rows={data} rowKey={(n) => n.id} columns={columns} label="Newsletters" />}
        </QueryState>
      </section>
      <p className="small muted" style={{ margin: 0 }}>
        Member counts are the subscribers a send would email now (not those whose email is turned off). Send a post from its editor:
        Email newsletter.
      </p>
      <TrackingSettings />
      {editing ? (
        <NewsletterDialog
          newsletter={editing === 'new' ? null : editing}
          busy={creating || updating}
          onCancel={() => setEditing(null)}
          onSave={save}
        />
      ) : null}
      <ConfirmDialog title="Archive newsletter" confirmLabel="Archive" {...archiving.dialog}>
        <p style={{ margin: 0 }}>
          Archive <strong className="break">{archiving.item?.name}</strong>? Nothing can be sent to it and readers can no longer
          subscribe to it. Its members and past sends are kept, and you can make it active again.
        </p>
      </ConfirmDialog>
    </>
  );
}
