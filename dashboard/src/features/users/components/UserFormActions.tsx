import { Link } from 'react-router';

/** Cancel and the save button under a user form. */
export function UserFormActions({ cancelTo, busy, label, busyLabel }: { cancelTo: string; busy: boolean; label: string; busyLabel: string }) {
  return (
    <div className="row" style={{ justifyContent: 'flex-end' }}>
      <Link to={cancelTo} className="btn btn-secondary">
        Cancel
      </Link>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? busyLabel : label}
      </button>
    </div>
  );
}
