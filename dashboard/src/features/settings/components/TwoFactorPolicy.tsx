import { useState } from 'react';
import { toast } from 'sonner';
import { useCan } from '@/api/session';
import { useGetTwoFactorPolicyQuery, useUpdateTwoFactorPolicyMutation } from '@/api/twoFactor';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { QueryState } from '@/components/QueryState';
import { toastError } from '@/components/notify';

/** Admins: "Require two-factor sign-in" for every user of the company. Users without it can then only
 *  set it up (the server answers everything else with 403 `two_factor_setup_required`). */
export function TwoFactorPolicy() {
  const canManage = useCan('settings.manage');
  const policy = useGetTwoFactorPolicyQuery(undefined, { skip: !canManage });
  const [update, { isLoading: saving }] = useUpdateTwoFactorPolicyMutation();
  const [asking, setAsking] = useState(false);

  if (!canManage) return null;

  async function save(required: boolean) {
    try {
      const reply = await update({ required }).unwrap();
      toast.success(reply.message || 'Saved');
    } catch (err) {
      toastError(err, 'Could not change the setting');
    }
    setAsking(false);
  }

  const without = policy.data?.usersWithoutTwoFactor ?? 0;
  return (
    <section className="card card-body stack" style={{ marginTop: 16 }} aria-labelledby="two-factor-policy">
      <h2 id="two-factor-policy" className="h-sub">
        Require two-factor sign-in
      </h2>
      <QueryState query={policy} compact loading="Loading the two-factor setting" error="Failed to load the two-factor setting">
        {(data) => (
          <>
            <p style={{ margin: 0 }}>
              When it is required, everyone signs in with a code from an authenticator app as well as their password. Users
              who have not set it up are taken to their account page to do so before anything else.
            </p>
            <p className="muted" style={{ margin: 0 }} role="status">
              {data.required ? 'Required for everyone.' : 'Not required: each user decides.'}{' '}
              {without === 0
                ? 'Every active user has it on.'
                : `${without} active user${without === 1 ? ' has' : 's have'} not set it up yet.`}
            </p>
            <label className="row" htmlFor="require-two-factor" style={{ gap: 8, alignItems: 'center' }}>
              <input
                id="require-two-factor"
                type="checkbox"
                checked={data.required}
                disabled={saving}
                onChange={(e) => (e.target.checked ? setAsking(true) : void save(false))}
              />
              Require two-factor sign-in for everyone
            </label>
          </>
        )}
      </QueryState>
      <ConfirmDialog
        open={asking}
        title="Require two-factor sign-in?"
        confirmLabel="Require it"
        busy={saving}
        onConfirm={() => void save(true)}
        onCancel={() => setAsking(false)}
      >
        {without > 0
          ? `${without} user${without === 1 ? '' : 's'} without it (you too, if you have not set it up) will have to set it up before they can use the dashboard again.`
          : 'Everyone already has it on; new users will have to set it up on their first sign-in.'}
      </ConfirmDialog>
    </section>
  );
}
