import { Link, useNavigate } from 'react-router';
import { Pencil, Plus, RefreshCw, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { useCan } from '@/api/session';
import { useDeleteTermMutation, type Term } from '@/api/terms';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { DataTable, type Column } from '@/components/DataTable';
import { PageHeader } from '@/components/PageHeader';
import { QueryState, type QueryResult } from '@/components/QueryState';
import { RowMenu } from '@/components/RowMenu';
import { useConfirmAction } from '@/components/useConfirmAction';
import { capitalize } from '@/lib/format';
import type { TermScreens } from '../kinds';

/** One page of a term list, however it is paged (categories on the client, tags on the server). */
export interface TermPage {
  query: QueryResult<Term[]>;
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
  /** Dimmed while another page loads. */
  dimmed?: boolean;
  /** After a delete (a page left empty shows the one before). */
  afterDelete?: () => void;
}

function RowActions({ term, screens, onDelete }: { term: Term; screens: TermScreens; onDelete: () => void }) {
  const navigate = useNavigate();
  const edit = () => navigate(`${screens.path}/edit/${term.id}`);
  if (screens.rowActions === 'menu') {
    return (
      <RowMenu
        label={`Actions for ${term.name}`}
        items={[
          { label: 'Edit', icon: <Pencil size={14} />, onSelect: edit },
          { label: 'Delete', icon: <Trash2 size={14} />, danger: true, onSelect: onDelete },
        ]}
      />
    );
  }
  return (
    <div className="row" style={{ gap: 2 }}>
      <button type="button" className="btn btn-ghost btn-icon" aria-label={`Edit ${term.name}`} onClick={edit}>
        <Pencil size={16} />
      </button>
      <button type="button" className="btn btn-ghost btn-icon" aria-label={`Delete ${term.name}`} onClick={onDelete}>
        <Trash2 size={16} />
      </button>
    </div>
  );
}

/** The categories or tags list: name, slug, (description), posts, and Edit / Delete for roles
 * that manage them; a term used by posts is refused before asking. */
export function TermList({ screens, list }: { screens: TermScreens; list: TermPage }) {
  const canCreate = useCan('taxonomy.create');
  const canManage = useCan('taxonomy.manage');
  const [deleteTerm] = useDeleteTermMutation();
  const remove = useConfirmAction((term: Term) => deleteTerm({ kind: screens.kind, id: term.id }).unwrap(), {
    done: `${capitalize(screens.one)} deleted successfully`,
    failed: screens.deleteFailed,
    then: () => list.afterDelete?.(),
  });

  function askDelete(term: Term) {
    if (term.postCount > 0) toast.error(screens.inUse(term.name, term.postCount));
    else remove.ask(term);
  }

  const add = `Add ${capitalize(screens.one)}`;
  const columns: Column<Term>[] = [
    { header: 'Name', primary: true, cell: (t) => <strong>{t.name}</strong> },
    { header: 'Slug', className: 'muted', cell: (t) => t.slug },
    ...(screens.withDescription
      ? [{ header: 'Description', className: 'muted', cell: (t: Term) => ('description' in t && t.description) || '—' }]
      : []),
    { header: 'Posts', cell: (t) => t.postCount ?? 0 },
    {
      header: 'Actions',
      actions: true,
      width: screens.rowActions === 'menu' ? 80 : 110,
      cell: (t) => (canManage ? <RowActions term={t} screens={screens} onDelete={() => askDelete(t)} /> : null),
    },
  ];

  return (
    <>
      <PageHeader
        title={capitalize(screens.many)}
        description={screens.listDescription}
        search={screens.kind === 'category' ? 'categories' : 'tags'}
        searchPlaceholder={`Search ${screens.many}...`}
        iconButton={{ icon: <RefreshCw size={16} />, label: 'Refresh', onClick: () => list.query.refetch?.() }}
        action={canCreate ? { label: add, to: `${screens.path}/new`, icon: <Plus size={16} /> } : undefined}
      />
      <section className="card">
        <QueryState
          query={list.query}
          loading={`Loading ${screens.many}...`}
          error={screens.loadFailed}
          isEmpty={(terms) => terms.length === 0}
          empty={`No ${screens.many} found. Create your first ${screens.one}!`}
          emptyAction={
            canCreate ? (
              <Link className="btn btn-primary" to={`${screens.path}/new`}>
                <Plus size={16} /> {add}
              </Link>
            ) : undefined
          }
        >
          {(terms) => (
            <DataTable
              rows={terms}
              rowKey={(t) => t.id}
              columns={columns}
              dimmed={list.dimmed}
              pages={{ page: list.page, totalPages: list.totalPages, onChange: list.onPage }}
            />
          )}
        </QueryState>
      </section>
      <ConfirmDialog title={`Delete ${screens.one}`} {...remove.dialog}>
        <p style={{ margin: 0 }}>{screens.deleteQuestion(remove.item?.name)}</p>
      </ConfirmDialog>
    </>
  );
}
