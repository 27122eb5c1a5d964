import { useSearchParams } from 'react-router';
import { RefreshCw } from 'lucide-react';
import { PageHeader } from '@/components/PageHeader';
import { Pagination } from '@/components/Pagination';
import { EmptyState, ErrorState, Field, LoadingState } from '@/components/ui';
import { useGetAuditQuery, type AuditFilters } from '@/api/audit';
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
  const { data, isLoading, isFetching, isError, error, refetch } = useGetAuditQuery(filters, { skip: !allowed });
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

  const message = errorMessage(error, '');
  return (
    <>
      <PageHeader
        title="Activity"
        description="Who did what, and when"
        search={false}
        iconButton={{ icon: <RefreshCw size={16} />, label: 'Refresh', onClick: () => refetch() }}
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
              {(data?.actions ?? []).map((a) => (
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
        {isLoading ? (
          <LoadingState label="Loading activity..." />
        ) : isError ? (
          <ErrorState title={message || 'Error loading activity'} onRetry={() => refetch()} />
        ) : !data || data.entries.length === 0 ? (
          <EmptyState>No activity matches these filters.</EmptyState>
        ) : (
          <>
            <div className="table-wrap" style={{ opacity: isFetching ? 0.6 : 1 }}>
              <table className="table stack-table">
                <thead>
                  <tr>
                    <th>When</th>
                    <th>User</th>
                    <th>Action</th>
                    <th>Details</th>
                    <th>
                      <abbr title="The day's keyed hash of the client address (the address itself is not kept)">From</abbr>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.entries.map((e) => (
                    <tr key={e.id}>
                      <td className="cell-primary small">{formatDateTime(e.createdAt)}</td>
                      <td data-label="User">{e.username || '—'}</td>
                      <td data-label="Action">
                        <strong>{e.actionLabel}</strong>
                      </td>
                      <td data-label="Details" className="small">
                        {e.summary || '—'}
                      </td>
                      <td data-label="From" className="small muted mono">
                        {e.clientHash ? e.clientHash.slice(0, 8) : '—'}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pagination page={page} totalPages={data.pagination.totalPages} onChange={(p) => set('page', String(p))} />
          </>
        )}
      </section>
    </>
  );
}
