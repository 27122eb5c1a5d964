import { useId, useState, type FormEvent } from 'react';
import type { EndpointBody, WebhookEndpoint } from '@/api/webhooks';
import { Dialog } from '@/components/Dialog';
import { Field } from '@/components/Field';
import { PlanNotice } from '@/components/PlanNotice';
import { Spinner } from '@/components/Spinner';
import { errorMessage, isApiError, isPlanRefusal } from '@/lib/errors';
import { groupEvents } from '../events';

interface Props {
  open: boolean;
  /** The endpoint being edited; none: a new one. */
  endpoint?: WebhookEndpoint | null;
  events: string[];
  busy?: boolean;
  onCancel: () => void;
  /** Saves; a rejected promise's field errors are shown on the fields. */
  onSave: (body: EndpointBody) => Promise<void>;
}

/** Add or edit an endpoint: URL, description, events (grouped checkboxes), active. */
export function EndpointForm({ open, endpoint, events, busy, onCancel, onSave }: Props) {
  if (!open) return null;
  return <OpenForm key={endpoint?.id ?? 'new'} endpoint={endpoint} events={events} busy={busy} onCancel={onCancel} onSave={onSave} />;
}

function OpenForm({ endpoint, events, busy, onCancel, onSave }: Omit<Props, 'open'>) {
  const formId = useId();
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [chosen, setChosen] = useState<string[]>(endpoint?.events ?? []);
  const [active, setActive] = useState(endpoint?.active ?? true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState('');
  const [refused, setRefused] = useState<unknown>(null);

  function toggle(event: string) {
    setChosen((list) => (list.includes(event) ? list.filter((e) => e !== event) : [...list, event]));
  }

  function toggleGroup(list: string[], on: boolean) {
    setChosen((current) => (on ? [...new Set([...current, ...list])] : current.filter((e) => !list.includes(e))));
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!/^https?:\/\/\S+$/i.test(url.trim())) found.url = 'Enter an http:// or https:// URL';
    if (chosen.length === 0) found.events = 'Choose at least one event';
    setErrors(found);
    setFormError('');
    setRefused(null);
    if (Object.keys(found).length) return;
    try {
      await onSave({ url: url.trim(), description: description.trim(), events: chosen, active });
    } catch (err) {
      const fields: Record<string, string> = {};
      if (isApiError(err)) for (const f of err.errors ?? []) fields[f.field] = f.message;
      setErrors(fields);
      if (isPlanRefusal(err)) setRefused(err);
      else if (!Object.keys(fields).length) setFormError(errorMessage(err, 'Failed to save the endpoint'));
    }
  }

  return (
    <Dialog
      open
      wide
      title={endpoint ? 'Edit endpoint' : 'Add endpoint'}
      onClose={onCancel}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={busy}>
            {busy ? <Spinner small label="Saving" /> : null}
            {endpoint ? 'Save' : 'Add endpoint'}
          </button>
        </>
      }
    >
      <form id={formId} className="stack" onSubmit={submit} noValidate>
        <PlanNotice error={refused} />
        {formError ? (
          <p className="notice notice-danger" role="alert">
            {formError}
          </p>
        ) : null}
        <Field label="Endpoint URL" htmlFor={`${formId}-url`} error={errors.url} hint="Where the CMS POSTs each event (your site's build hook or server)">
          <input
            id={`${formId}-url`}
            className="input"
            type="url"
            inputMode="url"
            placeholder="https://example.com/hooks/cms"
            value={url}
            aria-invalid={!!errors.url}
            onChange={(e) => setUrl(e.target.value)}
          />
        </Field>
        <Field label="Description" htmlFor={`${formId}-description`} error={errors.description}>
          <input id={`${formId}-description`} className="input" value={description} onChange={(e) => setDescription(e.target.value)} />
        </Field>
        <fieldset className="check-groups" aria-describedby={errors.events ? `${formId}-events-error` : undefined}>
          <legend>Events</legend>
          {groupEvents(events).map((group) => {
            const all = group.events.every((e) => chosen.includes(e));
            return (
              <fieldset key={group.key} className="check-group">
                <legend>
                  <label className="check">
                    <input type="checkbox" checked={all} onChange={() => toggleGroup(group.events, !all)} />
                    <span>All {group.label.toLowerCase()} events</span>
                  </label>
                </legend>
                {group.events.map((event) => (
                  <label key={event} className="check">
                    <input type="checkbox" checked={chosen.includes(event)} onChange={() => toggle(event)} />
                    <code>{event}</code>
                  </label>
                ))}
              </fieldset>
            );
          })}
          {errors.events ? (
            <span className="field-error" role="alert" id={`${formId}-events-error`}>
              {errors.events}
            </span>
          ) : null}
        </fieldset>
        <label className="check">
          <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} />
          <span>Active (deliveries are sent)</span>
        </label>
      </form>
    </Dialog>
  );
}
