import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { PageHeader } from '@/components/PageHeader';
import { Pagination } from '@/components/Pagination';
import { ConfirmDialog, ErrorState, LoadingState } from '@/components/ui';
import { useGetPostQuery } from '@/api/posts';
import {
  useGetRevisionQuery,
  useGetRevisionsQuery,
  useRestoreRevisionMutation,
  type RevisionSummary,
} from '@/api/revisions';
import { ALL_TAGS, useGetCategoriesQuery, useGetTagsQuery } from '@/api/terms';
import { errorMessage } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { DiffView } from '../components/editorial/DiffView';
import { PostNotFound } from '../components/PostNotFound';
import { compareSnapshots, type Names } from '../revisionDiff';

const ACTION_LABEL: Record<string, string> = {
  create: 'Created',
  update: 'Updated',
  publish: 'Published',
  unpublish: 'Unpublished',
  schedule: 'Scheduled',
  scheduled_publish: 'Published on schedule',
  restore: 'Restored',
};

const PAGE_SIZE = 20;

function describe(r: RevisionSummary): string {
  return `#${r.number} ${ACTION_LABEL[r.action] ?? r.action}`;
}

/** A post's saves, newest first; any two compared side by side; any one restored. */
export function PostHistory() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const post = useGetPostQuery(id, { skip: !id });
  const list = useGetRevisionsQuery({ id, page, limit: PAGE_SIZE }, { skip: !id, refetchOnMountOrArgChange: true });
  const categories = useGetCategoriesQuery();
  const tags = useGetTagsQuery(ALL_TAGS);
  // The two revisions compared: [older, newer]; by default the newest and the one before it.
  const [picked, setPicked] = useState<string[]>([]);
  const [restoring, setRestoring] = useState<RevisionSummary | null>(null);
  const [restore, { isLoading: restoringBusy }] = useRestoreRevisionMutation();

  const revisions = list.data?.revisions ?? [];
  const chosen = picked.length === 2 ? picked : revisions.slice(0, 2).map((r) => r.id);
  const byId = (rid: string) => revisions.find((r) => r.id === rid);
  const ordered = [...chosen].sort((a, b) => (byId(a)?.number ?? 0) - (byId(b)?.number ?? 0));
  const older = useGetRevisionQuery({ id, revisionId: ordered[0] ?? '' }, { skip: ordered.length < 2 });
  const newer = useGetRevisionQuery({ id, revisionId: ordered[1] ?? '' }, { skip: ordered.length < 2 });

  const names: Names = useMemo(() => {
    const out: Names = {};
    for (const c of categories.data ?? []) out[String(c.id)] = c.name;
    for (const t of tags.data?.tags ?? []) out[String(t.id)] = t.name;
    return out;
  }, [categories.data, tags.data]);
  const diffs = older.data && newer.data ? compareSnapshots(older.data.snapshot, newer.data.snapshot, names) : null;

  if (!id) return <PostNotFound message="Post ID is required" />;
  if (list.isLoading || post.isLoading) return <LoadingState label="Loading history..." />;
  if (list.isError) {
    return <ErrorState title="Could not load the history" message={errorMessage(list.error, '')} onRetry={list.refetch} />;
  }

  function toggle(rid: string) {
    const current = picked.length === 2 ? picked : chosen;
    if (current.includes(rid)) return;
    // Keep the most recently picked one and add this one.
    setPicked([current[current.length - 1], rid]);
  }

  async function confirmRestore() {
    if (!restoring) return;
    try {
      const reply = await restore({ id, revisionId: restoring.id }).unwrap();
      toast.success(reply.message || 'Revision restored');
      setRestoring(null);
      setPicked([]);
      setPage(1);
      navigate(`/dashboard/posts/edit/${id}`);
    } catch (err) {
      // The server's rules apply (an author restores only into a draft, a live post is an editor's).
      toast.error(errorMessage(err, 'Could not restore this revision'));
      setRestoring(null);
    }
  }

  return (
    <>
      <PageHeader
        title={`History: ${post.data?.title ?? ''}`}
        description="Every save of this post. Pick two saves to compare them; restore any of them as a new save."
        search={false}
      />
      <p>
        <Link to={`/dashboard/posts/edit/${id}`}>Back to the editor</Link>
      </p>
      <div className="post-form">
        <section className="card card-body stack" aria-labelledby="compare-title">
          <h2 id="compare-title" className="card-title">
            {ordered.length === 2 && byId(ordered[0]) && byId(ordered[1])
              ? `Compare ${describe(byId(ordered[0])!)} with ${describe(byId(ordered[1])!)}`
              : 'Compare'}
          </h2>
          {revisions.length < 2 ? <p className="muted">There is only one save so far.</p> : null}
          {older.isFetching || newer.isFetching ? <LoadingState label="Loading the revisions..." /> : null}
          {diffs && !older.isFetching && !newer.isFetching ? (
            <DiffView
              diffs={diffs}
              beforeLabel={`#${older.data?.number} (older)`}
              afterLabel={`#${newer.data?.number} (newer)`}
            />
          ) : null}
        </section>
        <aside className="card card-body stack" aria-labelledby="saves-title">
          <h2 id="saves-title" className="card-title">
            Saves
          </h2>
          <ul className="revision-list" aria-label="Revisions, newest first">
            {revisions.map((r) => (
              <li key={r.id} data-testid="revision">
                <label className="revision-meta row" style={{ alignItems: 'flex-start' }}>
                  <input
                    type="checkbox"
                    checked={chosen.includes(r.id)}
                    onChange={() => toggle(r.id)}
                    aria-label={`Compare ${describe(r)}`}
                  />
                  <span>
                    <strong>{describe(r)}</strong>
                    {r.published ? <span className="badge badge-published" style={{ marginLeft: 6 }}>live</span> : null}
                    <br />
                    <span className="small muted">
                      {formatDateTime(r.createdAt)} · {r.author ? r.author.username : 'scheduler'}
                    </span>
                  </span>
                </label>
                <button
                  type="button"
                  className="btn btn-secondary btn-sm"
                  onClick={() => setRestoring(r)}
                  aria-label={`Restore ${describe(r)}`}
                >
                  Restore
                </button>
              </li>
            ))}
          </ul>
          {list.data && list.data.pagination.totalPages > 1 ? (
            <Pagination page={page} totalPages={list.data.pagination.totalPages} onChange={(p) => {
              setPage(p);
              setPicked([]);
            }} />
          ) : null}
        </aside>
      </div>
      <ConfirmDialog
        open={!!restoring}
        title={restoring ? `Restore ${describe(restoring)}?` : 'Restore'}
        confirmLabel="Restore"
        busy={restoringBusy}
        onCancel={() => setRestoring(null)}
        onConfirm={confirmRestore}
      >
        <p style={{ margin: 0 }}>
          The post gets the title, text and settings of this save. This is saved as a new revision, so nothing is
          lost. Categories, tags and images deleted since are left out.
        </p>
      </ConfirmDialog>
    </>
  );
}
