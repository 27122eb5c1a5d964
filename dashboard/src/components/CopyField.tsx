import { useId, type ReactNode } from 'react';
import { Copy } from 'lucide-react';
import { copyText } from '@/lib/clipboard';

interface Props {
  label: string;
  value: string;
  hint?: ReactNode;
}

/** A value to copy (a key, an address): read only, selected on focus, with its Copy button
 * ("Copy <label>" to assistive technology). */
export function CopyField({ label, value, hint }: Props) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="row" style={{ alignItems: 'stretch' }}>
        <input
          id={id}
          className="input mono"
          readOnly
          value={value}
          aria-describedby={hint ? hintId : undefined}
          onFocus={(e) => e.target.select()}
        />
        <button type="button" className="btn btn-secondary" aria-label={`Copy ${label}`} onClick={() => void copyText(value)}>
          <Copy size={16} aria-hidden="true" />
          Copy
        </button>
      </div>
      {hint ? (
        <span id={hintId} className="field-hint">
          {hint}
        </span>
      ) : null}
    </div>
  );
}
