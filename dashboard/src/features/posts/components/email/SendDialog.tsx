import { useId } from 'react';
import { Link } from 'react-router';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { useGetMemberLabelsQuery } from '@/api/members';
import {
  members,
  NEWSLETTERS_PATH,
  useGetSendRecipientsQuery,
  useSendPostMutation,
  type Newsletter,
  type NewsletterSend,
} from '@/api/newsletters';
import type { Post } from '@/api/posts';
import { useCan } from '@/api/session';
import { Dialog } from '@/components/Dialog';
import { Field } from '@/components/Field';
import { bind, TextField } from '@/components/form';
import { Spinner } from '@/components/Spinner';
import { toastError } from '@/components/notify';
import { errorMessage, isApiError } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { activeNewsletters, sendSchema, sentTo, type SendValues } from './sendSchema';

interface Props {
  post: Post;
  newsletters: Newsletter[];
  sends: NewsletterSend[];
  onClose: () => void;
}

const FIELDS = ['newsletterId', 'labelId', 'subject'] as const;

/** How many members the send would email, as the server counts them for the choices as they are. */
function RecipientCount({ count, labelled }: { count: ReturnType<typeof useGetSendRecipientsQuery>; labelled: boolean }) {
  let text;
  if (count.isUninitialized) text = 'Choose a newsletter.';
  else if (count.isFetching) text = 'Counting the recipients...';
  else if (count.isError) text = `Could not count the recipients: ${errorMessage(count.error)}`;
  else if (count.data === 0) {
    text = labelled ? 'No member of this newsletter has this label: nobody would get it.' : 'This newsletter has no members yet: nobody would get it.';
  } else if (count.data !== undefined) {
    text = (
      <>
        This email goes to <strong>{members(count.data)}</strong>
        {labelled ? ' with this label' : ''}.
      </>
    );
  }
  return (
    <p className={count.isError || count.data === 0 ? 'notice notice-warning' : 'notice notice-info'} role="status" style={{ margin: 0 }}>
      {text}
    </p>
  );
}

/** "Send by email": the newsletter, all its members or those with one label, the subject; the
 * number of recipients is shown before the button that sends (a published post) or has it sent when
 * it publishes (a scheduled one). */
export function SendDialog({ post, newsletters, sends, onClose }: Props) {
  const formId = useId();
  const labels = useGetMemberLabelsQuery();
  const canManage = useCan('newsletters.manage');
  const [send, { isLoading: sending }] = useSendPostMutation();
  const active = activeNewsletters(newsletters);
  const sent = sentTo(sends);
  const first = active.find((n) => !sent.has(n.id));
  const form = useForm<SendValues>({
    resolver: zodResolver(sendSchema),
    defaultValues: { newsletterId: first?.id ?? '', labelId: '', subject: '' },
  });
  const [newsletterId, labelId] = useWatch({ control: form.control, name: ['newsletterId', 'labelId'] });
  const count = useGetSendRecipientsQuery(
    { postId: post.id, newsletterId, labelId },
    { skip: !newsletterId || sent.has(newsletterId), refetchOnMountOrArgChange: true },
  );
  const scheduled = post.status !== 'published';
  const ready = !!newsletterId && !sent.has(newsletterId) && !count.isFetching && !!count.data;

  const submit = form.handleSubmit(async (values) => {
    if (!ready) return;
    try {
      const reply = await send({
        postId: post.id,
        newsletterId: values.newsletterId,
        ...(values.labelId ? { labelId: values.labelId } : {}),
        ...(values.subject.trim() ? { subject: values.subject.trim() } : {}),
      }).unwrap();
      toast.success(reply.message || (scheduled ? 'The post will be sent when it is published' : 'The post is being sent'));
      onClose();
    } catch (err) {
      let placed = false;
      for (const f of isApiError(err) ? (err.errors ?? []) : []) {
        const field = FIELDS.find((name) => name === f.field);
        if (field) {
          form.setError(field, { message: f.message }, { shouldFocus: !placed });
          placed = true;
        }
      }
      // 409 (sent to this newsletter already, a draft), 403 plan_limit (with the way to the usage).
      if (!placed) toastError(err, 'Could not send the post');
    }
  });

  const errors = form.formState.errors;
  const action = scheduled ? 'Send when it publishes' : count.data ? `Send to ${members(count.data)}` : 'Send';
  return (
    <Dialog
      open
      title="Send by email"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={sending}>
            Cancel
          </button>
          {active.length ? (
            <button type="submit" form={formId} className="btn btn-primary" disabled={sending || !ready}>
              {sending ? <Spinner small label="Sending" /> : null}
              {action}
            </button>
          ) : null}
        </>
      }
    >
      {active.length === 0 ? (
        <p style={{ margin: 0 }}>
          There is no active newsletter to send to.{' '}
          {canManage ? <Link to={NEWSLETTERS_PATH}>Add one in Settings → Newsletters.</Link> : 'An editor or administrator can add one.'}
        </p>
      ) : (
        <form
          id={formId}
          className="stack"
          noValidate
          aria-label="Send by email"
          onSubmit={(e) => {
            e.stopPropagation();
            void submit(e);
          }}
        >
          <Field label="Newsletter" htmlFor="send-newsletter" error={errors.newsletterId?.message}>
            <select id="send-newsletter" className="select" aria-invalid={!!errors.newsletterId} {...form.register('newsletterId')}>
              {first ? null : <option value="">Choose a newsletter</option>}
              {active.map((n) => (
                <option key={n.id} value={n.id} disabled={sent.has(n.id)}>
                  {n.name} ({members(n.members)}){sent.has(n.id) ? ': sent already' : ''}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Recipients" htmlFor="send-label" error={errors.labelId?.message} hint="A post goes to a newsletter once, whatever the label.">
            <select id="send-label" className="select" aria-invalid={!!errors.labelId} {...form.register('labelId')}>
              <option value="">All members of the newsletter</option>
              {labels.data?.length ? (
                <optgroup label="Only members with the label">
                  {labels.data.map((l) => (
                    <option key={l.id} value={l.id}>
                      {l.name}
                    </option>
                  ))}
                </optgroup>
              ) : null}
            </select>
          </Field>
          <TextField label="Subject" autoComplete="off" placeholder={post.title} hint="Empty: the post's title." {...bind(form, 'subject')} id="send-subject" />
          <RecipientCount count={count} labelled={!!labelId} />
          {scheduled ? (
            <p className="notice notice-warning" style={{ margin: 0 }}>
              Will be sent when it publishes{post.scheduledPublishDate ? ` (${formatDateTime(post.scheduledPublishDate)})` : ''}, to the
              members it has then. Until then you can cancel it.
            </p>
          ) : (
            <p className="small muted" style={{ margin: 0 }}>
              The post as last saved is sent now. An email cannot be taken back once sent.
            </p>
          )}
        </form>
      )}
    </Dialog>
  );
}
