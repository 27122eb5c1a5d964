import { toast } from 'sonner';
import { useGetVerificationQuery, useResendVerificationMutation } from '@/api/company';
import { useAppSelector } from '@/lib/hooks';
import { selectUser } from '@/lib/session';
import { Spinner } from './Spinner';
import { toastError } from './notify';

/** Until the company's email is verified: what is waiting, and "Resend" for admins. */
export function VerificationBanner() {
  const user = useAppSelector(selectUser);
  const { data } = useGetVerificationQuery();
  const [resend, { isLoading }] = useResendVerificationMutation();
  if (!data || data.verified) return null;

  async function onResend() {
    try {
      toast.success((await resend().unwrap()).message);
    } catch (err) {
      toastError(err, 'Could not send the email. Please try again.');
    }
  }

  return (
    <div className="notice notice-warning verification-banner" role="status">
      <span>
        <strong>Please verify your email.</strong> We sent a link to <strong>{data.email}</strong>. Until it is opened, your
        public content API answers 403.
      </span>
      {user?.role === 'admin' ? (
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void onResend()} disabled={isLoading}>
          {isLoading ? <Spinner small label="Sending" /> : null}
          Resend
        </button>
      ) : null}
    </div>
  );
}
