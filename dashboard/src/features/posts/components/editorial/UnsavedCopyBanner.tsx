import { toast } from 'sonner';
import { useDeleteAutosaveMutation, useGetAutosaveQuery, type Autosave, type AutosaveTarget } from '@/api/autosaves';
import { useKind } from '../../kinds';

interface Props<V> {
  /** The post's (page's) id, or `new`. */
  target: AutosaveTarget;
  /** The post's updatedAt now: a copy made from an older version says so. */
  updatedAt?: string | null;
  onRestore: (fields: V) => void;
  /** Shown once per opening: hidden after Restore or Discard. */
  hidden: boolean;
  onDone: () => void;
}

function time(value: string): string {
  return new Date(value).toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit' });
}

/** Reopening a post with an autosaved copy offers it back ("Restore unsaved changes from 14:02?"). */
export function UnsavedCopyBanner<V>({ target, updatedAt, onRestore, hidden, onDone }: Props<V>) {
  const { data } = useGetAutosaveQuery(target, { refetchOnMountOrArgChange: true });
  const [discard, { isLoading }] = useDeleteAutosaveMutation();
  const kind = useKind();
  if (hidden || !data) return null;
  const copy = data as Autosave<V>;
  const older = !!(copy.baseUpdatedAt && updatedAt && copy.baseUpdatedAt !== updatedAt);
  return (
    <div className="editorial-banner" role="region" aria-label="Unsaved changes">
      <span>
        Restore unsaved changes from {time(copy.updatedAt)}?
        {older ? <span className="small"> The {kind.noun} was saved by someone since this copy was made.</span> : null}
      </span>
      <span className="row" style={{ gap: 8 }}>
        <button
          type="button"
          className="btn btn-primary btn-sm"
          onClick={() => {
            onRestore(copy.fields);
            onDone();
            toast.success('Unsaved changes restored');
          }}
        >
          Restore
        </button>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={isLoading}
          onClick={async () => {
            try {
              await discard(target).unwrap();
            } catch {
              toast.error('Could not discard the unsaved changes');
            }
            onDone();
          }}
        >
          Discard
        </button>
      </span>
    </div>
  );
}
