import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useGetPostQuery } from '@/api/posts';
import { useGetRevisionQuery, useGetRevisionsQuery, useRestoreRevisionMutation, type RevisionPage, type RevisionSummary } from '@/api/revisions';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { LoadingState } from '@/components/LoadingState';
import { PageHeader } from '@/components/PageHeader';
import { Pagination } from '@/components/Pagination';
import { QueryState } from '@/components/QueryState';
import { useConfirmAction } from '@/components/useConfirmAction';
import { errorMessage } from '@/lib/errors';
import { DiffView } from '../components/editorial/DiffView';
import { describe, RevisionList } from '../components/editorial/RevisionList';
import { PostNotFound } from '../components/PostNotFound';
import { useTermNames } from '../hooks/useTermNames';
import { useKind } from '../kinds';
import { compareSnapshots } from '../revisionDiff';

const PAGE_SIZE = 20;

interface HistoryProps {
  id: string;
  title: string;
  list: RevisionPage;
  page: number;
  onPage: (page: number) => void;
}

/** The comparison of two saves (by default the newest and the one before it) and the saves. */
function History({ id, title, list, page, onPage }: HistoryProps) {
  const navigate = useNavigate();
  const kind = useKind();
  const of = { kind: kind.api };
  // The two revisions compared: [older, newer].
  const [picked, setPicked] = useState<string[]>([]);
  const [restore] = useRestoreRevisionMutation();
  const restoring = useConfirmAction((r: RevisionSummary) => restore({ id, revisionId: r.id, ...of }).unwrap(), {
    done: 'Revision restored',
    // The server's rules apply (an author restores only into a draft, a live post is an editor's).
    failed: (err) => errorMessage(err, 'Could not restore this revision'),
    then: () => navigate(kind.edit(id)),
  });

  const revisions = list.revisions;
  const chosen = picked.length === 2 ? picked : revisions.slice(0, 2).map((r) => r.id);
  const byId = (rid: string) => revisions.find((r) => r.id === rid);
  const ordered = [...chosen].sort((a, b) => (byId(a)?.number ?? 0) - (byId(b)?.number ?? 0));
  const older = useGetRevisionQuery({ id, revisionId: ordered[0] ?? '', ...of }, { skip: ordered.length < 2 });
  const newer = useGetRevisionQuery({ id, revisionId: ordered[1] ?? '', ...of }, { skip: ordered.length < 2 });
  const names = useTermNames();
  const comparing = older.isFetching || newer.isFetching;
  const diffs = older.data && newer.data && !comparing ? compareSnapshots(older.data.snapshot, newer.data.snapshot, names) : null;
  const [first, second] = ordered.map(byId);

  function pick(rid: string) {
    if (chosen.includes(rid)) return;
    // Keep the most recently picked one and add this one.
    setPicked([chosen[chosen.length - 1], rid]);
  }

  return (
    <>
      <PageHeader
        title={`History: ${title}`}
        description={`Every save of this ${kind.noun}. Pick two saves to compare them; restore any of them as a new save.`}
        search={false}
      />
      <p>
        <Link to={kind.edit(id)}>Back to the editor</Link>
      </p>
      <div className="post-form">
        <section className="card card-body stack" aria-labelledby="compare-title">
          <h2 id="compare-title" className="card-title">
            {first && second ? `Compare ${describe(first)} with ${describe(second)}` : 'Compare'}
          </h2>
          {revisions.length < 2 ? <p className="muted">There is only one save so far.</p> : null}
          {comparing ? <LoadingState label="Loading the revisions..." /> : null}
          {diffs ? <DiffView diffs={diffs} beforeLabel={`#${older.data?.number} (older)`} afterLabel={`#${newer.data?.number} (newer)`} /> : null}
        </section>
        <aside className="card card-body stack" aria-labelledby="saves-title">
          <h2 id="saves-title" className="card-title">
            Saves
          </h2>
          <RevisionList revisions={revisions} chosen={chosen} onPick={pick} onRestore={restoring.ask} />
          <Pagination
            page={page}
            totalPages={list.pagination.totalPages}
            onChange={(p) => {
              onPage(p);
              setPicked([]);
            }}
          />
        </aside>
      </div>
      <ConfirmDialog title={restoring.item ? `Restore ${describe(restoring.item)}?` : 'Restore'} confirmLabel="Restore" {...restoring.dialog}>
        <p style={{ margin: 0 }}>
          The {kind.noun} gets the title, text and settings of this save. This is saved as a new revision, so nothing is lost.
          Categories, tags and images deleted since are left out.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** A post's (page's) saves, newest first; any two compared side by side; any one restored. */
export function PostHistory() {
  const { id = '' } = useParams();
  const kind = useKind();
  const [page, setPage] = useState(1);
  const post = useGetPostQuery({ kind: kind.api, id }, { skip: !id });
  const list = useGetRevisionsQuery(
    { id, page, limit: PAGE_SIZE, kind: kind.api },
    { skip: !id, refetchOnMountOrArgChange: true },
  );
  if (!id) return <PostNotFound message={`${kind.Noun} ID is required`} />;
  return (
    <QueryState
      query={{ ...list, isLoading: list.isLoading || post.isLoading }}
      loading="Loading history..."
      error="Could not load the history"
      errorDetail={errorMessage(list.error, '')}
    >
      {(data) => <History id={id} title={post.data?.title ?? ''} list={data} page={page} onPage={setPage} />}
    </QueryState>
  );
}
