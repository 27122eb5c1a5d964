import { useSearchParams } from 'react-router';
import { RefreshCw } from 'lucide-react';
import { PageHeader } from '@/components/PageHeader';
import { DataTable, type Column } from '@/components/DataTable';
import { QueryState } from '@/components/QueryState';
import { EmptyState, Field, LoadingState } from '@/components/ui';
import { useGetAuditQuery, type AuditEntry, type AuditFilters } from '@/api/audit';
import { useCapabilities } from '@/api/session';
import { useGetUsersQuery } from '@/api/users';
import { errorMessage } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';

export const ACTIVITY_PAGE_SIZE = 25;
const OBJECT_TYPES = [
  { value: 'user', label: 'Users' },
  { value: 'post', label: 'Posts' },
  { value: 'category', label: 'Categories' },
  { value: 'tag', label: 'Tags' },
  { value: 'media', label: 'Media' },
  { value: 'company', label: 'Company' },
];
const FILTER_KEYS = ['user', 'action', 'objectType', 'from', 'to'] as const;

const COLUMNS: Column<AuditEntry>[] = [
  { header: 'When', primary: true, className: 'small', cell: (e) => formatDateTime(e.createdAt) },
  { header: 'User', cell: (e) => e.username || '—' },
  { header: 'Action', cell: (e) => <strong>{e.actionLabel}</strong> },
  { header: 'Details', className: 'small', cell: (e) => e.summary || '—' },
  {
    header: <abbr title="The day's keyed hash of the client address (the address itself is not kept)">From</abbr>,
    label: 'From',
    className: 'small muted mono',
    cell: (e) => (e.clientHash ? e.clientHash.slice(0, 8) : '—'),
  },
];

/** Who did what, when, and from where (admins: capability audit.read). */
export function Activity() {
  const { capabilities, ready } = useCapabilities();
  const allowed = capabilities.has('audit.read');
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const filters: AuditFilters = { page, limit: ACTIVITY_PAGE_SIZE };
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value) filters[key] = value;
  }
  const audit = useGetAuditQuery(filters, { skip: !allowed });
  // The people the "User" filter offers (admins read the users list).
  const users = useGetUsersQuery(undefined, { skip: !allowed });

  function set(key: (typeof FILTER_KEYS)[number] | 'page', value: string) {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== 'page') next.delete('page');
    setParams(next);
  }

  if (!ready) return <LoadingState />;
  if (!allowed) {
    return (
      <>
        <PageHeader title="Activity" search={false} />
        <section className="card">
          <EmptyState>Only administrators can see the activity log.</EmptyState>
        </section>
      </>
    );
  }

  return (
    <>
      <PageHeader
        title="Activity"
        description="Who did what, and when"
        search={false}
        iconButton={{ icon: <RefreshCw size={16} />, label: 'Refresh', onClick: () => audit.refetch() }}
      />
      <section className="card card-body">
        <form className="filters-grid" aria-label="Filter the activity" onSubmit={(e) => e.preventDefault()}>
          <Field label="User" htmlFor="audit-user">
            <select id="audit-user" className="select" value={filters.user ?? ''} onChange={(e) => set('user', e.target.value)}>
              <option value="">Everyone</option>
              {(users.data ?? []).map((u) => (
                <option key={u.id} value={u.id}>
                  {u.username}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Action" htmlFor="audit-action">
            <select id="audit-action" className="select" value={filters.action ?? ''} onChange={(e) => set('action', e.target.value)}>
              <option value="">All actions</option>
              {(audit.data?.actions ?? []).map((a) => (
                <option key={a.value} value={a.value}>
                  {a.label}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Object" htmlFor="audit-object">
            <select
              id="audit-object"
              className="select"
              value={filters.objectType ?? ''}
              onChange={(e) => set('objectType', e.target.value)}
            >
              <option value="">Everything</option>
              {OBJECT_TYPES.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </Field>
          <Field label="From" htmlFor="audit-from">
            <input id="audit-from" type="date" className="input" value={filters.from ?? ''} onChange={(e) => set('from', e.target.value)} />
          </Field>
          <Field label="To" htmlFor="audit-to">
            <input id="audit-to" type="date" className="input" value={filters.to ?? ''} onChange={(e) => set('to', e.target.value)} />
          </Field>
        </form>
      </section>
      <section className="card">
        <QueryState
          query={audit}
          loading="Loading activity..."
          error={errorMessage(audit.error, '') || 'Error loading activity'}
          isEmpty={(list) => list.entries.length === 0}
          empty="No activity matches these filters."
        >
          {(list) => (
            <DataTable
              rows={list.entries}
              rowKey={(e) => e.id}
              columns={COLUMNS}
              dimmed={audit.isFetching}
              pages={{ page, totalPages: list.pagination.totalPages, onChange: (p) => set('page', String(p)) }}
            />
          )}
        </QueryState>
      </section>
    </>
  );
}
