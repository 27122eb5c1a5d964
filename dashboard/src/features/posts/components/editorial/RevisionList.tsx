import type { RevisionSummary } from '@/api/revisions';
import { formatDateTime } from '@/lib/format';

const ACTION_LABEL: Record<string, string> = {
  create: 'Created',
  update: 'Updated',
  publish: 'Published',
  unpublish: 'Unpublished',
  schedule: 'Scheduled',
  scheduled_publish: 'Published on schedule',
  restore: 'Restored',
};

/** "#3 Published": a save's number and what it did. */
export function describe(r: RevisionSummary): string {
  return `#${r.number} ${ACTION_LABEL[r.action] ?? r.action}`;
}

interface Props {
  revisions: RevisionSummary[];
  /** The ids of the two saves compared. */
  chosen: string[];
  onPick: (id: string) => void;
  onRestore: (revision: RevisionSummary) => void;
}

/** The saves of a post, newest first: a checkbox to compare each, and Restore. */
export function RevisionList({ revisions, chosen, onPick, onRestore }: Props) {
  return (
    <ul className="revision-list" aria-label="Revisions, newest first">
      {revisions.map((r) => (
        <li key={r.id} data-testid="revision">
          <label className="revision-meta row" style={{ alignItems: 'flex-start' }}>
            <input type="checkbox" checked={chosen.includes(r.id)} onChange={() => onPick(r.id)} aria-label={`Compare ${describe(r)}`} />
            <span>
              <strong>{describe(r)}</strong>
              {r.published ? <span className="badge badge-published" style={{ marginLeft: 6 }}>live</span> : null}
              <br />
              <span className="small muted">
                {formatDateTime(r.createdAt)} · {r.author ? r.author.username : 'scheduler'}
              </span>
            </span>
          </label>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => onRestore(r)} aria-label={`Restore ${describe(r)}`}>
            Restore
          </button>
        </li>
      ))}
    </ul>
  );
}
