import { useId, useState, type KeyboardEvent } from 'react';
import { Plus } from 'lucide-react';
import { useGetMemberLabelsQuery } from '@/api/members';
import { NAME_MAX } from '../schemas';

interface Props {
  value: string[];
  onChange: (names: string[]) => void;
  disabled?: boolean;
  error?: string;
}

/** A member's labels: the company's labels as checkboxes, and (unless read only) a field to add a
 * new one (made when the member is saved). */
export function LabelPicker({ value, onChange, disabled, error }: Props) {
  const id = useId();
  const labels = useGetMemberLabelsQuery();
  const [text, setText] = useState('');
  const known = (labels.data ?? []).map((l) => l.name);
  const lower = new Set(known.map((n) => n.toLowerCase()));
  const names = [...known, ...value.filter((n) => !lower.has(n.toLowerCase()))];
  const chosen = new Set(value.map((n) => n.toLowerCase()));

  function toggle(name: string) {
    onChange(chosen.has(name.toLowerCase()) ? value.filter((n) => n.toLowerCase() !== name.toLowerCase()) : [...value, name]);
  }

  function add() {
    const name = text.split(/\s+/).filter(Boolean).join(' ').slice(0, NAME_MAX);
    if (!name) return;
    const existing = names.find((n) => n.toLowerCase() === name.toLowerCase()) ?? name;
    if (!chosen.has(existing.toLowerCase())) onChange([...value, existing]);
    setText('');
  }

  function onKey(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'Enter') {
      e.preventDefault();
      add();
    }
  }

  return (
    <fieldset className="check-groups" disabled={disabled} aria-describedby={error ? `${id}-error` : undefined}>
      <legend>Labels</legend>
      {names.length ? (
        <div className="check-group" style={{ border: 0, padding: 0 }}>
          {names.map((name) => (
            <label key={name} className="check">
              <input type="checkbox" checked={chosen.has(name.toLowerCase())} onChange={() => toggle(name)} />
              <span className="break">{name}</span>
            </label>
          ))}
        </div>
      ) : (
        <p className="small muted" style={{ margin: 0 }}>
          No labels yet.
        </p>
      )}
      {disabled ? null : (
        <div className="row" style={{ alignItems: 'stretch' }}>
          <input
            id={`${id}-new`}
            className="input"
            aria-label="New label"
            placeholder="New label"
            maxLength={NAME_MAX}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKey}
          />
          <button type="button" className="btn btn-secondary" onClick={add}>
            <Plus size={16} aria-hidden="true" /> Add label
          </button>
        </div>
      )}
      {error ? (
        <span id={`${id}-error`} className="field-error" role="alert">
          {error}
        </span>
      ) : null}
    </fieldset>
  );
}
