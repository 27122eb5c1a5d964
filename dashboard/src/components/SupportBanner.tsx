import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { sessionApi } from '@/api/session';
import { useEndSupportSessionMutation } from '@/api/support';
import { formatDateTime } from '@/lib/format';
import { useAppDispatch, useAppSelector } from '@/lib/hooks';
import { loggedOut } from '@/lib/session';
import { toastError } from './notify';

/** A support session (opened from the operator console): who is signed in, by whom, until when, and
 *  "End support session". Everything done meanwhile is in the company's activity log as done by support. */
export function SupportBanner() {
  const token = useAppSelector((s) => s.session.token);
  const { data } = sessionApi.useGetMeQuery(token ?? '', { skip: !token });
  const [end, { isLoading }] = useEndSupportSessionMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const support = data?.support;
  if (!support) return null;

  async function onEnd() {
    try {
      await end().unwrap();
      toast.success('The support session has ended');
    } catch (err) {
      toastError(err, 'Could not end the support session');
    }
    dispatch(loggedOut());
    navigate('/login', { replace: true });
  }

  return (
    <div className="notice notice-info banner support-banner" role="status" data-testid="support-banner">
      <span>
        <strong>Signed in by support as {data.user?.username}</strong> ({support.operator}), until{' '}
        {formatDateTime(support.endsAt)}. Everything done here is in the activity log as done by support.
      </span>
      <button type="button" className="btn btn-secondary btn-sm" onClick={() => void onEnd()} disabled={isLoading}>
        End support session
      </button>
    </div>
  );
}
