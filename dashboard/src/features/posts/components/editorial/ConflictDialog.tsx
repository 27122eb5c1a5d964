import { useState } from 'react';
import { Dialog } from '@/components/Dialog';
import type { FieldDiff } from '../../revisionDiff';
import { DiffView } from './DiffView';
import { useKind } from '../../kinds';

interface Props {
  /** The server's message: who changed the post and when. */
  message: string | null;
  /** Their version against yours (computed when asked for). */
  changes: () => Promise<FieldDiff[]>;
  onReload: () => void;
  onClose: () => void;
}

/** A save refused because someone saved the post since it was opened (409 edit_conflict). */
export function ConflictDialog({ message, changes, onReload, onClose }: Props) {
  const kind = useKind();
  const [diffs, setDiffs] = useState<FieldDiff[] | null>(null);
  const [loading, setLoading] = useState(false);
  return (
    <Dialog
      open={!!message}
      title={`This ${kind.noun} was changed by someone else`}
      wide
      onClose={() => {
        setDiffs(null);
        onClose();
      }}
      footer={
        <>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={loading}
            onClick={async () => {
              setLoading(true);
              try {
                setDiffs(await changes());
              } finally {
                setLoading(false);
              }
            }}
          >
            Show changes
          </button>
          <button type="button" className="btn btn-primary" onClick={onReload}>
            Reload
          </button>
        </>
      }
    >
      <p style={{ marginTop: 0 }} role="alert">
        {message}
      </p>
      <p className="small muted">
        Reload opens their version (your changes stay in a draft copy you can restore). Show changes compares their
        version with yours.
      </p>
      {diffs ? <DiffView diffs={diffs} beforeLabel="Their version" afterLabel="Your version" /> : null}
    </Dialog>
  );
}
