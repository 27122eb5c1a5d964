import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Download, Eye, Pencil, Plus, RefreshCw, Tags, Trash2, Upload } from 'lucide-react';
import { toast } from 'sonner';
import {
  NO_NEWSLETTER,
  useDeleteMemberMutation,
  useExportMembersMutation,
  useGetMemberLabelsQuery,
  useGetMembersQuery,
  useKnownNewsletters,
  useLabelMembersMutation,
  type Member,
  type MemberFilters,
} from '@/api/members';
import { useCan } from '@/api/session';
import { Badge } from '@/components/Badge';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { DataTable, type Column } from '@/components/DataTable';
import { ListSearch } from '@/components/ListSearch';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { RowMenu } from '@/components/RowMenu';
import { toastError } from '@/components/notify';
import { useConfirmAction } from '@/components/useConfirmAction';
import { errorMessage } from '@/lib/errors';
import { formatDate } from '@/lib/format';
import { BulkLabelDialog } from '../components/BulkLabelDialog';
import { MEMBERS_PATH } from '../components/MemberForm';
import { STATUS_OPTIONS } from '../schemas';

export const MEMBERS_PAGE_SIZE = 20;
/** Long addresses wrap when they must, without narrowing their column to a few letters. */
const WRAP = { overflowWrap: 'break-word' } as const;

/** Start a download of a file the server links to (the members export's signed link). */
function download(url: string, fileName: string) {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
}

function Filter({ id, label, value, onChange, options }: { id: string; label: string; value: string; onChange: (v: string) => void; options: { value: string; label: string }[] }) {
  return (
    <span className="small row" style={{ gap: 6 }}>
      <label htmlFor={id}>{label}</label>
      <select id={id} className="select" value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </span>
  );
}

/** Members: search and filters (label, status, newsletter) kept in the address, the list with its
 * pages; editors and admins add, edit, delete, label several at once, import and export. */
export function MembersList() {
  const navigate = useNavigate();
  const canManage = useCan('members.manage');
  const [params, setParams] = useSearchParams();
  const filters: MemberFilters = {
    search: params.get('q') ?? '',
    label: params.get('label') ?? '',
    status: (params.get('status') ?? '') as MemberFilters['status'],
    newsletter: params.get('newsletter') ?? '',
  };
  const page = Math.max(1, Number(params.get('page')) || 1);
  const members = useGetMembersQuery({ ...filters, page, limit: MEMBERS_PAGE_SIZE });
  const rows = members.data?.members ?? [];
  const labels = useGetMemberLabelsQuery();
  const newsletters = useKnownNewsletters();
  const [selected, setSelected] = useState<string[]>([]);
  const [labelling, setLabelling] = useState(false);
  const [labelMembers, { isLoading: applying }] = useLabelMembersMutation();
  const [exportMembers, { isLoading: exporting }] = useExportMembersMutation();
  const [remove] = useDeleteMemberMutation();
  const deleting = useConfirmAction((member: Member) => remove(member.id).unwrap(), {
    done: 'Member deleted',
    failed: (err) => errorMessage(err, 'Failed to delete the member'),
    then: (_reply, member) => setSelected((ids) => ids.filter((id) => id !== member.id)),
  });

  function update(next: Partial<MemberFilters> & { page?: number }) {
    const merged = { ...filters, ...next };
    const q = new URLSearchParams();
    if (merged.search) q.set('q', merged.search);
    if (merged.label) q.set('label', merged.label);
    if (merged.status) q.set('status', merged.status);
    if (merged.newsletter) q.set('newsletter', merged.newsletter);
    const p = next.page ?? 1;
    if (p > 1) q.set('page', String(p));
    setSelected([]);
    setParams(q);
  }

  async function onExport() {
    try {
      const link = await exportMembers(filters).unwrap();
      download(link.url, link.fileName);
      toast.success('The members CSV is downloading');
    } catch (err) {
      toastError(err, 'Failed to export the members');
    }
  }

  async function onLabel(change: { add: string[]; remove: string[] }) {
    try {
      // In the list's order.
      const memberIds = rows.filter((m) => selected.includes(m.id)).map((m) => m.id);
      const reply = await labelMembers({ memberIds, ...change }).unwrap();
      toast.success(reply.message || 'Labels changed');
      setLabelling(false);
      setSelected([]);
    } catch (err) {
      toastError(err, 'Failed to change the labels');
    }
  }

  const allChosen = rows.length > 0 && rows.every((m) => selected.includes(m.id));
  const labelOptions = [{ value: '', label: 'All' }, ...(labels.data ?? []).map((l) => ({ value: l.id, label: `${l.name} (${l.members})` }))];
  const newsletterOptions = [
    { value: '', label: 'All' },
    { value: NO_NEWSLETTER, label: 'Subscribed to none' },
    ...newsletters.map((n) => ({ value: n.id, label: n.name })),
    ...(filters.newsletter && filters.newsletter !== NO_NEWSLETTER && !newsletters.some((n) => n.id === filters.newsletter)
      ? [{ value: filters.newsletter, label: 'The chosen newsletter' }]
      : []),
  ];
  const filtered = !!(filters.search || filters.label || filters.status || filters.newsletter);

  const columns: Column<Member>[] = [
    {
      header: 'Member',
      primary: true,
      cell: (m) => (
        <span className="row" style={{ alignItems: 'flex-start', gap: 10 }}>
          {canManage ? (
            <input
              type="checkbox"
              className="member-select"
              aria-label={`Choose ${m.email}`}
              checked={selected.includes(m.id)}
              onChange={() => setSelected((ids) => (ids.includes(m.id) ? ids.filter((id) => id !== m.id) : [...ids, m.id]))}
            />
          ) : null}
          <span className="stack" style={{ gap: 2, minWidth: 0 }}>
            <Link to={`${MEMBERS_PATH}/${m.id}`} style={WRAP}>
              <strong>{m.name || m.email}</strong>
            </Link>
            {m.name ? (
              <span className="small muted" style={WRAP}>
                {m.email}
              </span>
            ) : null}
          </span>
        </span>
      ),
    },
    {
      header: 'Status',
      cell: (m) => (
        <span className="row wrap" style={{ gap: 4, display: 'inline-flex' }}>
          <Badge tone={m.status === 'comped' ? 'success' : undefined}>{m.status === 'comped' ? 'Complimentary' : 'Free'}</Badge>
          {m.emailDisabled ? <Badge tone="danger">Emails off</Badge> : null}
        </span>
      ),
    },
    {
      header: 'Labels',
      cell: (m) =>
        m.labels.length ? (
          <span className="row wrap" style={{ gap: 4, display: 'inline-flex' }}>
            {m.labels.map((l) => (
              <Badge key={l.id} tone="primary">
                {l.name}
              </Badge>
            ))}
          </span>
        ) : (
          <span className="muted">None</span>
        ),
    },
    {
      header: 'Newsletters',
      className: 'small',
      cell: (m) => (m.newsletters.length ? m.newsletters.map((n) => n.name).join(', ') : <span className="muted">None</span>),
    },
    { header: 'Added', className: 'small', cell: (m) => formatDate(m.createdAt) },
    {
      header: <span className="sr-only">Actions</span>,
      label: 'Actions',
      actions: true,
      width: 60,
      cell: (m) => (
        <RowMenu
          label={`Actions for ${m.email}`}
          items={
            canManage
              ? [
                  { label: 'Edit', icon: <Pencil size={14} />, onSelect: () => navigate(`${MEMBERS_PATH}/${m.id}`) },
                  { label: 'Delete', icon: <Trash2 size={14} />, danger: true, onSelect: () => deleting.ask(m) },
                ]
              : [{ label: 'View', icon: <Eye size={14} />, onSelect: () => navigate(`${MEMBERS_PATH}/${m.id}`) }]
          }
        />
      ),
    },
  ];

  const total = members.data?.total ?? 0;
  return (
    <>
      <PageHeader
        title="Members"
        description="The readers of your site and the subscribers of your newsletters"
        search={false}
        iconButton={{ icon: <RefreshCw size={16} />, label: 'Refresh', onClick: () => members.refetch() }}
        action={canManage ? { label: 'Add member', to: `${MEMBERS_PATH}/new`, icon: <Plus size={16} /> } : undefined}
      />
      {canManage ? (
        <div className="row wrap" style={{ gap: 8 }}>
          <Link className="btn btn-secondary" to={`${MEMBERS_PATH}/import`}>
            <Upload size={16} aria-hidden="true" /> Import CSV
          </Link>
          <button type="button" className="btn btn-secondary" onClick={() => void onExport()} disabled={exporting}>
            <Download size={16} aria-hidden="true" /> {filtered ? 'Export these members (CSV)' : 'Export all members (CSV)'}
          </button>
        </div>
      ) : null}
      <section className="card" aria-label="Members">
        <div className="card-header">
          <ListSearch value={filters.search ?? ''} label="Search members" onChange={(text) => update({ search: text })} />
          <div className="row wrap" style={{ gap: 12 }}>
            <Filter id="members-label" label="Label" value={filters.label ?? ''} options={labelOptions} onChange={(label) => update({ label })} />
            <Filter
              id="members-status"
              label="Status"
              value={filters.status ?? ''}
              options={[{ value: '', label: 'All' }, ...STATUS_OPTIONS]}
              onChange={(status) => update({ status: status as MemberFilters['status'] })}
            />
            <Filter id="members-newsletter" label="Newsletter" value={filters.newsletter ?? ''} options={newsletterOptions} onChange={(newsletter) => update({ newsletter })} />
          </div>
          {members.data ? (
            <span className="small muted" role="status">
              {total} {total === 1 ? 'member' : 'members'}
            </span>
          ) : null}
        </div>
        {canManage && rows.length ? (
          <div className="card-header" style={{ justifyContent: 'flex-start' }}>
            <label className="check small">
              <input type="checkbox" checked={allChosen} onChange={() => setSelected(allChosen ? [] : rows.map((m) => m.id))} />
              <span>Choose all on this page</span>
            </label>
            {selected.length ? (
              <>
                <span className="small">{selected.length} chosen</span>
                <button type="button" className="btn btn-secondary btn-sm" onClick={() => setLabelling(true)}>
                  <Tags size={14} aria-hidden="true" /> Labels...
                </button>
              </>
            ) : null}
          </div>
        ) : null}
        <QueryState
          query={members}
          loading="Loading members..."
          error="Failed to load members. Please try again."
          isEmpty={(d) => d.members.length === 0}
          empty={filtered ? 'No members match these filters.' : canManage ? 'No members yet. Add one, or import a CSV.' : 'No members yet.'}
          emptyAction={
            canManage && !filtered ? (
              <Link className="btn btn-primary" to={`${MEMBERS_PATH}/new`}>
                <Plus size={16} /> Add member
              </Link>
            ) : undefined
          }
        >
          {(data) => (
            <DataTable
              rows={data.members}
              rowKey={(m) => m.id}
              columns={columns}
              label="Members"
              dimmed={members.isFetching}
              pages={{ page, totalPages: data.totalPages, onChange: (p) => update({ page: p }) }}
            />
          )}
        </QueryState>
      </section>
      <BulkLabelDialog
        open={labelling}
        count={selected.length}
        labels={labels.data ?? []}
        busy={applying}
        onCancel={() => setLabelling(false)}
        onApply={(change) => void onLabel(change)}
      />
      <ConfirmDialog title="Delete member" {...deleting.dialog}>
        <p style={{ margin: 0 }}>
          Delete <strong className="break">{deleting.item?.email}</strong>? They are taken off every newsletter and label. This cannot be
          undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
