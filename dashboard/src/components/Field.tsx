import type { ReactNode } from 'react';

interface FieldProps {
  label: ReactNode;
  htmlFor?: string;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
  aside?: ReactNode;
}

/** A labelled control: the label (and `aside` beside it), the control, then the hint or the
 *  error (role=alert). */
export function Field({ label, htmlFor, error, hint, children, aside }: FieldProps) {
  return (
    <div className="field">
      <div className="row-between">
        <label htmlFor={htmlFor}>{label}</label>
        {aside}
      </div>
      {children}
      {hint && !error ? <span className="field-hint">{hint}</span> : null}
      {error ? (
        <span className="field-error" role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}
