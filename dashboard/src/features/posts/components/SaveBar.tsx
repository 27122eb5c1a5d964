import { useFormContext } from 'react-hook-form';
import { Link } from 'react-router';
import { Spinner } from '@/components/Spinner';
import type { PostFormValues } from '../schemas';
import { useKind } from '../kinds';
import { submitLabel } from '../statuses';
import { autosaveLabel, type AutosaveState } from '../useAutosave';

interface Props {
  mode: 'create' | 'edit';
  /** The status the form opened with (the button says "Update" while it is kept). */
  initialStatus: PostFormValues['status'];
  submitting: boolean;
  readOnly: boolean;
  /** The draft copy's state, shown beside the buttons while it is kept. */
  autosave?: AutosaveState;
}

/** The bar under the form: what saving will do, the copy's state, Cancel and the save button
 * (or, read only, why there is none and the way back). */
export function SaveBar({ mode, initialStatus, submitting, readOnly, autosave }: Props) {
  const { watch } = useFormContext<PostFormValues>();
  const kind = useKind();
  const status = watch('status');
  const publishDate = watch('publishDate');
  const label = submitLabel(mode, status, publishDate ?? '', initialStatus);

  if (readOnly) {
    return (
      <div className="form-actions" role="group" aria-label={`${kind.Noun} actions`}>
        <span className="small muted form-actions-note">Your role can read this {kind.noun}, not change it</span>
        <Link to={kind.list} className="btn btn-secondary">
          Back to {kind.plural}
        </Link>
      </div>
    );
  }
  return (
    <div className="form-actions" role="group" aria-label={`Save the ${kind.noun}`}>
      <span className="small muted form-actions-note">
        {status === 'draft'
          ? 'Not visible on the site'
          : status === 'review'
            ? 'An editor publishes it or sends it back'
            : label === 'Schedule'
              ? `Goes live on ${publishDate}`
              : null}
      </span>
      {autosave ? (
        <span className="autosave-status" role="status" aria-live="polite" data-testid="autosave-status">
          {autosaveLabel(autosave)}
        </span>
      ) : null}
      <Link to={kind.list} className="btn btn-secondary">
        Cancel
      </Link>
      <button type="submit" className="btn btn-primary" disabled={submitting}>
        {submitting ? <Spinner small label="Saving" /> : null}
        {label}
      </button>
    </div>
  );
}
