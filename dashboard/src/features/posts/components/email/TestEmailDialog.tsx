import { useState } from 'react';
import { toast } from 'sonner';
import { useSendTestEmailMutation, type Newsletter } from '@/api/newsletters';
import { sessionApi } from '@/api/session';
import { Dialog } from '@/components/Dialog';
import { SelectField } from '@/components/form';
import { Spinner } from '@/components/Spinner';
import { toastError } from '@/components/notify';
import { useAppSelector } from '@/lib/hooks';

interface Props {
  postId: string;
  newsletters: Newsletter[];
  onClose: () => void;
}

/** "Send a test email": the post's email as a newsletter sends it, to the signed-in user's own
 * address only (a draft too; not counted against the plan). */
export function TestEmailDialog({ postId, newsletters, onClose }: Props) {
  const token = useAppSelector((s) => s.session.token);
  const me = sessionApi.useGetMeQuery(token ?? '', { skip: !token });
  const [chosen, setChosen] = useState(newsletters[0]?.id ?? '');
  const [sendTest, { isLoading }] = useSendTestEmailMutation();
  const email = me.data?.user.email;

  async function send() {
    try {
      const reply = await sendTest({ postId, newsletterId: chosen }).unwrap();
      toast.success(reply.message || 'A test email is on its way');
      onClose();
    } catch (err) {
      toastError(err, 'Could not send the test email');
    }
  }

  return (
    <Dialog
      open
      title="Send a test email"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={isLoading}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" onClick={() => void send()} disabled={isLoading || !chosen}>
            {isLoading ? <Spinner small label="Sending" /> : null}
            Send test email
          </button>
        </>
      }
    >
      <div className="stack">
        {newsletters.length > 1 ? (
          <SelectField
            label="As sent by"
            id="test-newsletter"
            options={newsletters.map((n) => ({ value: n.id, label: n.name }))}
            value={chosen}
            onChange={(e) => setChosen(e.target.value)}
          />
        ) : null}
        <p style={{ margin: 0 }}>
          The post's email as {newsletters.length === 1 ? <strong className="break">{newsletters[0].name}</strong> : 'this newsletter'} sends
          it, to your own address{email ? <> (<strong className="break">{email}</strong>)</> : null} only, with [Test] before the subject.
        </p>
        <p className="small muted" style={{ margin: 0 }}>
          The post as last saved. A test email is not counted against your plan, and its unsubscribe links lead nowhere.
        </p>
      </div>
    </Dialog>
  );
}
