import { useEffect, useId, useRef, useState } from 'react';
import { useFieldArray, useFormContext } from 'react-hook-form';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { Card } from '@/components/Card';
import { NAVIGATION_MAX, type LinkListName, type SiteValues } from '../siteSchema';

interface Props {
  name: LinkListName;
  title: string;
  description: string;
  readOnly: boolean;
  /** The server's message about the whole list (a 400 names the list, not the link's field). */
  serverError?: string;
}

type Focus = { id: string; action: 'up' | 'down' | 'remove' | 'label' } | { id: 'add'; action: 'add' };

/**
 * A navigation of the site: links (a label and an address) in order. Each link has Move up,
 * Move down and Remove buttons (by keyboard or pointer); focus stays on the link moved (on the
 * other arrow once it reaches an end), and a polite live region says where it went.
 */
export function LinkListField({ name, title, description, readOnly, serverError }: Props) {
  const id = useId();
  const { control, register, formState, getValues } = useFormContext<SiteValues>();
  const { fields, append, remove, move } = useFieldArray({ control, name });
  const [said, setSaid] = useState('');
  const [focus, setFocus] = useState<Focus | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const errors = formState.errors[name];

  useEffect(() => {
    if (!focus) return;
    if (focus.id === 'add') addButton.current?.focus();
    else {
      const row = list.current?.querySelector<HTMLElement>(`[data-row="${focus.id}"]`);
      const wanted = row?.querySelector<HTMLElement>(`[data-action="${focus.action}"]`);
      const other = row?.querySelector<HTMLElement>(`[data-action="${focus.action === 'up' ? 'down' : 'up'}"]`);
      const target = wanted && !(wanted as HTMLButtonElement).disabled ? wanted : other && !(other as HTMLButtonElement).disabled ? other : row?.querySelector<HTMLElement>('[data-action="remove"]');
      target?.focus();
    }
    setFocus(null);
  }, [focus]);

  const labelOf = (index: number) => getValues(`${name}.${index}.label`)?.trim() || `Link ${index + 1}`;

  function shift(index: number, by: -1 | 1) {
    const to = index + by;
    if (to < 0 || to >= fields.length) return;
    const label = labelOf(index);
    move(index, to);
    setSaid(`${label} moved to position ${to + 1} of ${fields.length}`);
    setFocus({ id: fields[index].id, action: by < 0 ? 'up' : 'down' });
  }

  function drop(index: number) {
    const label = labelOf(index);
    const next = fields[index + 1] ?? fields[index - 1];
    remove(index);
    setSaid(`${label} removed`);
    setFocus(next ? { id: next.id, action: 'remove' } : { id: 'add', action: 'add' });
  }

  function add() {
    append({ label: '', url: '' }, { shouldFocus: true });
    setSaid(`Link ${fields.length + 1} added`);
  }

  const listError = serverError || (errors && 'message' in errors ? errors.message : undefined) || errors?.root?.message;
  return (
    <Card title={title} titleId={`${id}-title`} aria-labelledby={`${id}-title`}>
      <p className="small muted" style={{ margin: 0 }}>
        {description}
      </p>
      {fields.length === 0 ? <p className="small muted" style={{ margin: 0 }}>No links yet.</p> : null}
      <ol className="link-list" ref={list} aria-labelledby={`${id}-title`}>
        {fields.map((field, index) => {
          const rowErrors = Array.isArray(errors) ? errors[index] : undefined;
          const labelId = `${id}-${index}-label`;
          const urlId = `${id}-${index}-url`;
          return (
            <li key={field.id} data-row={field.id} className="link-row">
              <fieldset className="link-fields">
                <legend className="small muted">Link {index + 1}</legend>
                <div className="field">
                  <label htmlFor={labelId}>Label</label>
                  <input
                    id={labelId}
                    className="input"
                    data-action="label"
                    readOnly={readOnly}
                    aria-invalid={!!rowErrors?.label}
                    aria-describedby={rowErrors?.label ? `${labelId}-error` : undefined}
                    {...register(`${name}.${index}.label`)}
                  />
                  {rowErrors?.label ? (
                    <span className="field-error" role="alert" id={`${labelId}-error`}>
                      {rowErrors.label.message}
                    </span>
                  ) : null}
                </div>
                <div className="field">
                  <label htmlFor={urlId}>Address</label>
                  <input
                    id={urlId}
                    className="input"
                    inputMode="url"
                    placeholder="/about or https://..."
                    readOnly={readOnly}
                    aria-invalid={!!rowErrors?.url}
                    aria-describedby={rowErrors?.url ? `${urlId}-error` : undefined}
                    {...register(`${name}.${index}.url`)}
                  />
                  {rowErrors?.url ? (
                    <span className="field-error" role="alert" id={`${urlId}-error`}>
                      {rowErrors.url.message}
                    </span>
                  ) : null}
                </div>
              </fieldset>
              {readOnly ? null : (
                <div className="link-actions">
                  <button
                    type="button"
                    className="btn btn-secondary btn-icon"
                    data-action="up"
                    aria-label={`Move link ${index + 1} up`}
                    title="Move up"
                    disabled={index === 0}
                    onClick={() => shift(index, -1)}
                  >
                    <ArrowUp size={16} aria-hidden="true" />
                  </button>
                  <button
                    type="button"
                    className="btn btn-secondary btn-icon"
                    data-action="down"
                    aria-label={`Move link ${index + 1} down`}
                    title="Move down"
                    disabled={index === fields.length - 1}
                    onClick={() => shift(index, 1)}
                  >
                    <ArrowDown size={16} aria-hidden="true" />
                  </button>
                  <button
                    type="button"
                    className="btn btn-secondary btn-icon"
                    data-action="remove"
                    aria-label={`Remove link ${index + 1}`}
                    title="Remove"
                    onClick={() => drop(index)}
                  >
                    <Trash2 size={16} aria-hidden="true" />
                  </button>
                </div>
              )}
            </li>
          );
        })}
      </ol>
      {listError ? (
        <span className="field-error" role="alert">
          {listError}
        </span>
      ) : null}
      {readOnly || fields.length >= NAVIGATION_MAX ? null : (
        <div>
          <button ref={addButton} type="button" className="btn btn-secondary btn-sm" aria-label={`Add link to ${title}`} onClick={add}>
            <Plus size={14} aria-hidden="true" /> Add link
          </button>
        </div>
      )}
      <span className="sr-only" role="status" aria-live="polite">
        {said}
      </span>
    </Card>
  );
}
