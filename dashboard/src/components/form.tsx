import type { InputHTMLAttributes, ReactNode, Ref, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import type { FieldValues, Path, UseFormRegisterReturn, UseFormReturn } from 'react-hook-form';
import { capitalize } from '@/lib/format';
import { Field } from './Field';
import { PasswordInput } from './PasswordInput';
import { Spinner } from './Spinner';

/**
 * Labelled form controls: the label, the control (`aria-invalid` while `error` is set), then the
 * hint or the error (role=alert). `field` takes react-hook-form's `register(name)`; without it,
 * pass `value` and `onChange` as to any control.
 */
interface Labelled {
  label: ReactNode;
  id: string;
  error?: string;
  hint?: ReactNode;
  /** Beside the label (a link, a counter). */
  aside?: ReactNode;
  field?: UseFormRegisterReturn;
}

type InputProps = Labelled & Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  ref?: Ref<HTMLInputElement>;
  /** After the input on the same line (".example.com"). */
  suffix?: ReactNode;
};

export function TextField({ label, id, error, hint, aside, field, suffix, ...input }: InputProps) {
  const control = <input id={id} className="input" aria-invalid={!!error} {...input} {...field} />;
  return (
    <Field label={label} htmlFor={id} error={error} hint={hint} aside={aside}>
      {suffix ? (
        <div className="row">
          {control}
          <span className="muted">{suffix}</span>
        </div>
      ) : (
        control
      )}
    </Field>
  );
}

/** A password with its show / hide button. */
export function PasswordField({ label, id, error, hint, aside, field, ...input }: Labelled & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'>) {
  return (
    <Field label={label} htmlFor={id} error={error} hint={hint} aside={aside}>
      <PasswordInput id={id} aria-invalid={!!error} {...input} {...field} />
    </Field>
  );
}

export function TextAreaField({ label, id, error, hint, aside, field, ...textarea }: Labelled & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'>) {
  return (
    <Field label={label} htmlFor={id} error={error} hint={hint} aside={aside}>
      <textarea id={id} className="textarea" aria-invalid={!!error} {...textarea} {...field} />
    </Field>
  );
}

export interface Option {
  value: string;
  label: string;
}

/** A select of `options`, after an optional first `placeholder` option (value ''). */
export function SelectField({
  label,
  id,
  error,
  hint,
  aside,
  field,
  options,
  placeholder,
  ...select
}: Labelled & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & { options: Option[]; placeholder?: string }) {
  return (
    <Field label={label} htmlFor={id} error={error} hint={hint} aside={aside}>
      <select id={id} className="select" aria-invalid={!!error} {...select} {...field}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** Options whose labels are their values with a capital ("admin" -> "Admin"). */
export function capitalized(values: readonly string[]): Option[] {
  return values.map((value) => ({ value, label: capitalize(value) }));
}

interface SubmitProps {
  busy: boolean;
  /** The button's colour: primary (default), danger (turning something off) or secondary. */
  tone?: 'primary' | 'danger' | 'secondary';
  /** The spinner's name while busy ("Saving"). */
  busyLabel?: string;
  /** Full width (the sign-in pages). */
  block?: boolean;
  className?: string;
  children: ReactNode;
}

/** A form's primary button: disabled, with a spinner, while the form is being sent. */
export function SubmitButton({ busy, busyLabel = 'Working', tone = 'primary', block = false, className = '', children }: SubmitProps) {
  return (
    <button type="submit" className={`btn btn-${tone}${block ? ' btn-block' : ''}${className ? ` ${className}` : ''}`} disabled={busy}>
      {busy ? <Spinner small label={busyLabel} /> : null}
      {children}
    </button>
  );
}

/** The id, registration and error of a react-hook-form field named `name` (its id is its name). */
export function bind<T extends FieldValues>(form: Pick<UseFormReturn<T>, 'register' | 'formState'>, name: Path<T>) {
  const errors = form.formState.errors as Record<string, { message?: string } | undefined>;
  return { id: name as string, field: form.register(name), error: errors[name]?.message };
}
