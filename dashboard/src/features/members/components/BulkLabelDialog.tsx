import { useId, useState } from 'react';
import type { LabelWithCount } from '@/api/members';
import { Dialog } from '@/components/Dialog';
import { Spinner } from '@/components/Spinner';
import { labelNames, NAME_MAX } from '../schemas';

interface Props {
  open: boolean;
  count: number;
  labels: LabelWithCount[];
  busy: boolean;
  onCancel: () => void;
  /** Label names to add (made when new), label ids to take off. */
  onApply: (change: { add: string[]; remove: string[] }) => void;
}

/** "Labels" for the members chosen in the list: labels to add (names, new ones made) and to take off. */
export function BulkLabelDialog({ open, ...props }: Props) {
  if (!open) return null;
  return <OpenDialog {...props} />;
}

function OpenDialog({ count, labels, busy, onCancel, onApply }: Omit<Props, 'open'>) {
  const id = useId();
  const [add, setAdd] = useState('');
  const [remove, setRemove] = useState<string[]>([]);
  const [error, setError] = useState('');

  function apply() {
    const names = labelNames(add);
    if (!names.length && !remove.length) {
      setError('Name a label to add, or choose one to take off');
      return;
    }
    if (names.some((n) => n.length > NAME_MAX)) {
      setError(`Label names must be at most ${NAME_MAX} characters`);
      return;
    }
    onApply({ add: names, remove });
  }

  return (
    <Dialog
      open
      title={`Labels of ${count} ${count === 1 ? 'member' : 'members'}`}
      onClose={onCancel}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" onClick={apply} disabled={busy}>
            {busy ? <Spinner small label="Applying" /> : null}
            Apply
          </button>
        </>
      }
    >
      <form
        className="stack"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          apply();
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-add`}>Add labels</label>
          <input
            id={`${id}-add`}
            className="input"
            list={`${id}-known`}
            autoComplete="off"
            aria-invalid={!!error}
            aria-describedby={`${id}-hint`}
            value={add}
            onChange={(e) => {
              setAdd(e.target.value);
              setError('');
            }}
          />
          <datalist id={`${id}-known`}>
            {labels.map((l) => (
              <option key={l.id} value={l.name} />
            ))}
          </datalist>
          <span id={`${id}-hint`} className="field-hint">
            Names, separated by commas; a new name makes a new label.
          </span>
        </div>
        {labels.length ? (
          <fieldset className="check-groups">
            <legend>Take off</legend>
            <div className="check-group" style={{ border: 0, padding: 0 }}>
              {labels.map((l) => (
                <label key={l.id} className="check">
                  <input
                    type="checkbox"
                    checked={remove.includes(l.id)}
                    onChange={() => {
                      setRemove((list) => (list.includes(l.id) ? list.filter((x) => x !== l.id) : [...list, l.id]));
                      setError('');
                    }}
                  />
                  <span className="break">{l.name}</span>
                </label>
              ))}
            </div>
          </fieldset>
        ) : null}
        {error ? (
          <span className="field-error" role="alert">
            {error}
          </span>
        ) : null}
      </form>
    </Dialog>
  );
}
