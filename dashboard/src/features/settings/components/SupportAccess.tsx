import { useState } from 'react';
import { toast } from 'sonner';
import { useCan } from '@/api/session';
import { useGetSupportAccessQuery, useGrantSupportAccessMutation, useRevokeSupportAccessMutation } from '@/api/support';
import { QueryState } from '@/components/QueryState';
import { toastError } from '@/components/notify';
import { formatDateTime } from '@/lib/format';

const HOURS = [1, 2, 4, 8, 12, 24];

/** Admins: let the platform's support sign in as a user of the company for a few hours (and revoke
 *  it: every support session ends at once). Each support session is in the activity log. */
export function SupportAccess() {
  const canManage = useCan('settings.manage');
  const access = useGetSupportAccessQuery(undefined, { skip: !canManage });
  const [grant, { isLoading: granting }] = useGrantSupportAccessMutation();
  const [revoke, { isLoading: revoking }] = useRevokeSupportAccessMutation();
  const [hours, setHours] = useState(2);

  if (!canManage) return null;

  async function onGrant() {
    try {
      toast.success((await grant({ hours }).unwrap()).message || 'Support access granted');
    } catch (err) {
      toastError(err, 'Could not grant support access');
    }
  }

  async function onRevoke() {
    try {
      toast.success((await revoke().unwrap()).message || 'Support access revoked');
    } catch (err) {
      toastError(err, 'Could not revoke support access');
    }
  }

  return (
    <section className="card card-body stack" style={{ marginTop: 16 }} aria-labelledby="support-access">
      <h2 id="support-access" className="h-sub">
        Support access
      </h2>
      <QueryState query={access} compact loading="Loading support access" error="Failed to load support access">
        {(data) => (
          <>
            <p style={{ margin: 0 }}>
              Let our support team sign in as one of your users to look into a problem. They never see or set a password;
              each session lasts at most an hour and everything they do is in the activity log as done by support.
            </p>
            {data.grant ? (
              <>
                <p className="muted" style={{ margin: 0 }} role="status">
                  Support may sign in until <strong>{formatDateTime(data.grant.expiresAt)}</strong> (granted by{' '}
                  {data.grant.grantedBy}).
                </p>
                {data.sessions.length > 0 ? (
                  <ul className="small" style={{ margin: 0 }} aria-label="Support sessions">
                    {data.sessions.map((s) => (
                      <li key={`${s.operator}-${s.startedAt}`}>
                        {s.operator} as {s.username}, {formatDateTime(s.startedAt)}
                        {s.endedAt ? `, ended ${formatDateTime(s.endedAt)}` : `, until ${formatDateTime(s.endsAt)}`}
                      </li>
                    ))}
                  </ul>
                ) : null}
                <div className="row wrap">
                  <button type="button" className="btn btn-danger" onClick={() => void onRevoke()} disabled={revoking}>
                    Revoke support access
                  </button>
                </div>
              </>
            ) : (
              <div className="row wrap" style={{ alignItems: 'end', gap: 8 }}>
                <label htmlFor="support-hours" className="stack" style={{ gap: 4 }}>
                  <span className="small">For</span>
                  <select
                    id="support-hours"
                    className="select"
                    value={hours}
                    onChange={(e) => setHours(Number(e.target.value))}
                  >
                    {HOURS.filter((h) => h <= data.maxHours).map((h) => (
                      <option key={h} value={h}>
                        {h} hour{h === 1 ? '' : 's'}
                      </option>
                    ))}
                  </select>
                </label>
                <button type="button" className="btn btn-primary" onClick={() => void onGrant()} disabled={granting}>
                  Grant support access
                </button>
              </div>
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}
