import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useKnownNewsletters, type Member } from '@/api/members';
import { Card, CardRow } from '@/components/Card';
import { bind, SelectField, TextAreaField, TextField } from '@/components/form';
import { PlanNotice } from '@/components/PlanNotice';
import { Spinner } from '@/components/Spinner';
import { errorCode, errorMessage, isApiError, isPlanRefusal } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { memberSchema, SOURCE_TEXT, STATUS_OPTIONS, type MemberValues } from '../schemas';
import { LabelPicker } from './LabelPicker';

export const MEMBERS_PATH = '/dashboard/members';

export function valuesOf(member?: Member | null): MemberValues {
  return {
    email: member?.email ?? '',
    name: member?.name ?? '',
    note: member?.note ?? '',
    status: member?.status ?? 'free',
    labels: (member?.labels ?? []).map((l) => l.name),
    newsletters: (member?.newsletters ?? []).map((n) => n.id),
    sendAgain: false,
  };
}

const FIELDS = ['email', 'name', 'note', 'status', 'labels', 'newsletters'] as const;

interface Props {
  member?: Member | null;
  readOnly: boolean;
  busy: boolean;
  /** Saves; a rejected promise's field errors are shown on the fields, anything else above them. */
  onSave: (values: MemberValues) => Promise<void>;
  /** Under the save bar's note: Delete (an existing member, for those who may). */
  extraActions?: ReactNode;
  failure: unknown;
  onFailure: (error: unknown) => void;
}

/** The newsletters a member is subscribed to, as checkboxes (the ones the dashboard has seen). */
function NewsletterChoices({ value, onChange, member }: { value: string[]; onChange: (ids: string[]) => void; member?: Member | null }) {
  const known = useKnownNewsletters();
  const all = [...known, ...(member?.newsletters ?? []).filter((n) => !known.some((k) => k.id === n.id))];
  if (!member) {
    return (
      <p className="small muted" style={{ margin: 0 }}>
        A new member is subscribed to the company's default newsletters.
      </p>
    );
  }
  if (!all.length) {
    return (
      <p className="small muted" style={{ margin: 0 }}>
        Not subscribed to any newsletter.
      </p>
    );
  }
  return (
    <fieldset className="check-groups">
      <legend>Subscribed to</legend>
      {all.map((n) => (
        <label key={n.id} className="check">
          <input
            type="checkbox"
            checked={value.includes(n.id)}
            onChange={() => onChange(value.includes(n.id) ? value.filter((id) => id !== n.id) : [...value, n.id])}
          />
          <span>{n.name}</span>
        </label>
      ))}
    </fieldset>
  );
}

/** A member's form: email, name, note, status, labels; newsletters and the provider's state for
 * one that exists; read only (no save) for a role that may not change members. */
export function MemberForm({ member, readOnly, busy, onSave, extraActions, failure, onFailure }: Props) {
  const formId = useId();
  const form = useForm<MemberValues>({ resolver: zodResolver(memberSchema), defaultValues: valuesOf(member) });
  const { control, formState } = form;

  const submit = form.handleSubmit(async (values) => {
    onFailure(null);
    try {
      await onSave(values);
    } catch (err) {
      let placed = false;
      if (errorCode(err) === 'email_taken') {
        form.setError('email', { message: errorMessage(err) }, { shouldFocus: true });
        placed = true;
      }
      for (const f of isApiError(err) ? (err.errors ?? []) : []) {
        const field = FIELDS.find((name) => name === f.field);
        if (field) {
          form.setError(field, { message: f.message }, { shouldFocus: !placed });
          placed = true;
        }
      }
      if (!placed) onFailure(err);
    }
  });

  return (
    <form id={formId} className="stack" noValidate onSubmit={(e) => void submit(e)} aria-label={member ? 'Member' : 'New member'}>
      {isPlanRefusal(failure) ? (
        <PlanNotice error={failure} />
      ) : failure ? (
        <p className="notice notice-danger" role="alert" style={{ margin: 0 }}>
          {errorMessage(failure, 'Failed to save the member')}
        </p>
      ) : null}
      <fieldset className="fieldset-contents" disabled={readOnly}>
        <div className="grid-2" style={{ alignItems: 'start' }}>
          <Card title="Member">
            <TextField label="Email" type="email" autoComplete="off" {...bind(form, 'email')} id="member-email" />
            <TextField label="Name" autoComplete="off" {...bind(form, 'name')} id="member-name" />
            <SelectField label="Status" options={STATUS_OPTIONS} {...bind(form, 'status')} id="member-status" />
            <TextAreaField label="Note" rows={3} hint="Only staff see it." {...bind(form, 'note')} id="member-note" />
          </Card>
          <Card title="Labels and newsletters">
            <Controller
              control={control}
              name="labels"
              render={({ field }) => (
                <LabelPicker value={field.value} onChange={field.onChange} disabled={readOnly} error={formState.errors.labels?.message} />
              )}
            />
            <Controller
              control={control}
              name="newsletters"
              render={({ field }) => <NewsletterChoices value={field.value} onChange={field.onChange} member={member} />}
            />
            {member?.emailDisabled ? (
              <div className="stack" style={{ gap: 6 }}>
                <p className="notice notice-warning" style={{ margin: 0 }}>
                  Emails to this address are turned off{member.emailDisabledReason ? `: ${member.emailDisabledReason}` : ''}.
                </p>
                <label className="check">
                  <input type="checkbox" {...form.register('sendAgain')} />
                  <span>Send emails to this address again</span>
                </label>
              </div>
            ) : null}
          </Card>
        </div>
      </fieldset>
      {member ? (
        <Card title="About" body="rows">
          <CardRow label="Source">{SOURCE_TEXT[member.source] ?? member.source}</CardRow>
          <CardRow label="Added">{formatDateTime(member.createdAt)}</CardRow>
          {member.consentAt ? (
            <CardRow label="Consent">
              {formatDateTime(member.consentAt)}
              {member.consentIp ? ` from ${member.consentIp}` : ''}
            </CardRow>
          ) : null}
        </Card>
      ) : null}
      <div className="form-actions" role="group" aria-label="Save the member">
        <span className="small muted form-actions-note">
          {readOnly ? 'Your role can read members, not change them' : 'Members are your readers: they never sign in to the dashboard'}
        </span>
        {extraActions}
        <Link to={MEMBERS_PATH} className="btn btn-secondary">
          {readOnly ? 'Back to members' : 'Cancel'}
        </Link>
        {readOnly ? null : (
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? <Spinner small label="Saving" /> : null}
            {member ? 'Save member' : 'Add member'}
          </button>
        )}
      </div>
    </form>
  );
}
