import { useResetUserTwoFactorMutation } from '@/api/twoFactor';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { useConfirmAction } from '@/components/useConfirmAction';
import { errorMessage } from '@/lib/errors';

/** On another user's edit screen (admins): their two-factor sign-in, and a reset after a lost phone. */
export function TwoFactorReset({ userId, username, enabled }: { userId: string; username: string; enabled: boolean }) {
  const [reset] = useResetUserTwoFactorMutation();
  const resetting = useConfirmAction(() => reset(userId).unwrap().then(() => undefined), {
    done: `Two-factor sign-in of ${username} was reset. They have been told by email.`,
    failed: (err) => errorMessage(err, 'Could not reset two-factor sign-in'),
  });

  return (
    <section className="card card-body stack" style={{ maxWidth: 640, marginTop: 16 }} aria-labelledby="user-two-factor">
      <h2 id="user-two-factor" className="h-sub">
        Two-factor sign-in
      </h2>
      {enabled ? (
        <>
          <p style={{ margin: 0 }}>
            <strong>On.</strong> If {username} lost their phone and their recovery codes, turn it off here: they sign in
            with their password again and can set it up anew.
          </p>
          <div>
            <button type="button" className="btn btn-danger" onClick={() => resetting.ask(userId)}>
              Reset two-factor sign-in
            </button>
          </div>
        </>
      ) : (
        <p className="muted" style={{ margin: 0 }}>
          Off. {username} can turn it on from their account page.
        </p>
      )}
      <ConfirmDialog title="Reset two-factor sign-in?" confirmLabel="Reset" {...resetting.dialog}>
        {username} will sign in with their password only until they set up two-factor sign-in again. Their recovery
        codes stop working, and they will get an email about it.
      </ConfirmDialog>
    </section>
  );
}
