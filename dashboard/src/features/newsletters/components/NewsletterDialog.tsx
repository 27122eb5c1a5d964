import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Newsletter } from '@/api/newsletters';
import { Dialog } from '@/components/Dialog';
import { bind, SelectField, TextAreaField, TextField } from '@/components/form';
import { PlanNotice } from '@/components/PlanNotice';
import { Spinner } from '@/components/Spinner';
import { errorMessage, isApiError, isPlanRefusal } from '@/lib/errors';
import { NEWSLETTER_FIELDS, newsletterSchema, newsletterValues, STATUS_OPTIONS, type NewsletterValues } from '../schemas';

interface Props {
  /** The newsletter to edit; none: a new one. */
  newsletter?: Newsletter | null;
  busy: boolean;
  onCancel: () => void;
  /** Saves; a rejected promise's field errors (and a taken name) are shown on the fields. */
  onSave: (values: NewsletterValues) => Promise<void>;
}

/** "Add newsletter" and "Edit newsletter": its name and description, who the email comes from and
 * where replies go, the footer, whether new readers join it, and (an existing one) its status. */
export function NewsletterDialog({ newsletter, busy, onCancel, onSave }: Props) {
  const formId = useId();
  const form = useForm<NewsletterValues>({ resolver: zodResolver(newsletterSchema), defaultValues: newsletterValues(newsletter) });
  const [failure, setFailure] = useState<unknown>(null);
  const editing = !!newsletter;

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await onSave(values);
    } catch (err) {
      let placed = false;
      // 409: "A newsletter with this name already exists".
      if (isApiError(err) && err.status === 409) {
        form.setError('name', { message: errorMessage(err) }, { shouldFocus: true });
        placed = true;
      }
      for (const f of isApiError(err) ? (err.errors ?? []) : []) {
        const field = NEWSLETTER_FIELDS.find((name) => name === f.field);
        if (field) {
          form.setError(field, { message: f.message }, { shouldFocus: !placed });
          placed = true;
        }
      }
      if (!placed) setFailure(err);
    }
  });

  return (
    <Dialog
      open
      wide
      title={editing ? `Edit ${newsletter.name}` : 'Add newsletter'}
      onClose={onCancel}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={busy}>
            {busy ? <Spinner small label="Saving" /> : null}
            {editing ? 'Save newsletter' : 'Add newsletter'}
          </button>
        </>
      }
    >
      <form
        id={formId}
        className="stack"
        noValidate
        aria-label={editing ? 'Newsletter' : 'New newsletter'}
        onSubmit={(e) => {
          e.stopPropagation();
          void submit(e);
        }}
      >
        {isPlanRefusal(failure) ? (
          <PlanNotice error={failure} />
        ) : failure ? (
          <p className="notice notice-danger" role="alert" style={{ margin: 0 }}>
            {errorMessage(failure, 'Failed to save the newsletter')}
          </p>
        ) : null}
        <div className="grid-2" style={{ alignItems: 'start' }}>
          <div className="stack">
            <TextField label="Name" autoComplete="off" hint="Readers see it on their preferences page and in every email." {...bind(form, 'name')} id="newsletter-name" />
            <TextField label="Description" autoComplete="off" hint="One line on the preferences page." {...bind(form, 'description')} id="newsletter-description" />
            <TextField
              label="Sender name"
              autoComplete="off"
              hint="The name the email comes from. Empty: the site's title."
              {...bind(form, 'senderName')}
              id="newsletter-sender-name"
            />
            <TextField
              label="Reply-to address"
              type="email"
              autoComplete="off"
              hint="Where readers' replies go. Empty: replies go to the sending address."
              {...bind(form, 'replyTo')}
              id="newsletter-reply-to"
            />
          </div>
          <div className="stack">
            <TextAreaField
              label="Footer"
              rows={4}
              hint="Plain text above the unsubscribe links of every email."
              {...bind(form, 'footer')}
              id="newsletter-footer"
            />
            <label className="check">
              <input type="checkbox" {...form.register('defaultOnSignup')} />
              <span>New readers join it when they sign up without choosing</span>
            </label>
            {editing ? (
              <SelectField
                label="Status"
                options={STATUS_OPTIONS}
                hint="Nothing is sent to an archived newsletter and readers cannot subscribe to it; its members and sends are kept."
                {...bind(form, 'status')}
                id="newsletter-status"
              />
            ) : null}
          </div>
        </div>
      </form>
    </Dialog>
  );
}
