import type { ChangeEvent } from 'react';
import { useSearchParams } from 'react-router';
import { RefreshCw } from 'lucide-react';
import { useGetAuditQuery, type AuditEntry, type AuditFilters } from '@/api/audit';
import { useCapabilities } from '@/api/session';
import { useGetUsersQuery } from '@/api/users';
import { DataTable, type Column } from '@/components/DataTable';
import { EmptyState } from '@/components/EmptyState';
import { SelectField, TextField } from '@/components/form';
import { LoadingState } from '@/components/LoadingState';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { errorMessage } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';

export const ACTIVITY_PAGE_SIZE = 25;
/** The "Object" filter: an entry's object type, by its name in the list. */
const OBJECT_TYPES = Object.entries({
  user: 'Users', post: 'Posts', category: 'Categories', tag: 'Tags', media: 'Media', company: 'Company',
}).map(([value, label]) => ({ value, label }));
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
  /** A filter's control follows the address (`?user=...`); changing it goes back to page 1. */
  const filter = (key: (typeof FILTER_KEYS)[number]) => ({
    value: filters[key] ?? '',
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => set(key, e.target.value),
  });
  const userOptions = (users.data ?? []).map((u) => ({ value: u.id, label: u.username }));

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
          <SelectField label="User" id="audit-user" placeholder="Everyone" options={userOptions} {...filter('user')} />
          <SelectField label="Action" id="audit-action" placeholder="All actions" options={audit.data?.actions ?? []} {...filter('action')} />
          <SelectField label="Object" id="audit-object" placeholder="Everything" options={OBJECT_TYPES} {...filter('objectType')} />
          <TextField label="From" id="audit-from" type="date" {...filter('from')} />
          <TextField label="To" id="audit-to" type="date" {...filter('to')} />
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
