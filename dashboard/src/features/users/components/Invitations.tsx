import { useState, type FormEvent } from 'react';
import { Mail, RotateCw, X } from 'lucide-react';
import { toast } from 'sonner';
import {
  useCreateInvitationMutation,
  useGetInvitationsQuery,
  useResendInvitationMutation,
  useRevokeInvitationMutation,
  type Invitation,
} from '@/api/invitations';
import { Badge } from '@/components/Badge';
import { Card } from '@/components/Card';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { DataTable, type Column } from '@/components/DataTable';
import { Field } from '@/components/Field';
import { PlanNotice } from '@/components/PlanNotice';
import { QueryState } from '@/components/QueryState';
import { Spinner } from '@/components/Spinner';
import { toastError } from '@/components/notify';
import { useConfirmAction } from '@/components/useConfirmAction';
import { errorMessage, fieldMessage, isPlanRefusal } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import type { Role } from '@/lib/session';

const ROLES: Role[] = ['admin', 'editor', 'author', 'viewer'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const STATES = { loading: 'Loading invitations', error: 'Failed to load invitations. Please try again.', empty: 'No pending invitations.' };

/** The Users screen's "Invite by email" form and its pending invitations (resend, revoke). */
export function Invitations() {
  const invitations = useGetInvitationsQuery();
  const [invite, { isLoading: inviting }] = useCreateInvitationMutation();
  const [resend] = useResendInvitationMutation();
  const [revoke] = useRevokeInvitationMutation();
  const revoking = useConfirmAction((invitation: Invitation) => revoke(invitation.id).unwrap(), {
    done: 'Invitation revoked',
    failed: (err) => errorMessage(err, 'Could not revoke the invitation'),
  });
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState<string | null>(null);
  const [refused, setRefused] = useState<unknown>();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const address = email.trim();
    if (!EMAIL.test(address)) {
      setError('Please enter a valid email address');
      return;
    }
    setError(undefined);
    setRefused(undefined);
    try {
      const reply = await invite({ email: address, role }).unwrap();
      toast.success(reply.message);
      setEmail('');
    } catch (err) {
      const field = fieldMessage(err, 'email');
      if (field) setError(field);
      else if (isPlanRefusal(err)) setRefused(err);
      else toastError(err, 'Could not send the invitation');
    }
  }

  async function onResend(invitation: Invitation) {
    setBusy(invitation.id);
    try {
      toast.success((await resend(invitation.id).unwrap()).message);
    } catch (err) {
      toastError(err, 'Could not send the invitation again');
    } finally {
      setBusy(null);
    }
  }

  const columns: Column<Invitation>[] = [
    { header: 'Email', primary: true, cell: (i) => <strong>{i.email}</strong> },
    { header: 'Role', cell: (i) => <Badge tone="primary">{i.role}</Badge> },
    {
      header: 'Sent',
      className: 'small',
      cell: (i) => (
        <>
          {formatDateTime(i.sentAt)}
          {i.invitedBy ? <span className="muted"> by {i.invitedBy}</span> : null}
        </>
      ),
    },
    { header: 'Expires', className: 'small', cell: (i) => (i.expired ? <Badge tone="danger">expired</Badge> : formatDateTime(i.expiresAt)) },
    {
      header: 'Actions',
      cell: (i) => (
        <div className="row">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={busy === i.id}
            onClick={() => void onResend(i)}
            aria-label={`Resend the invitation to ${i.email}`}
          >
            <RotateCw size={14} aria-hidden="true" /> Resend
          </button>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => revoking.ask(i)} aria-label={`Revoke the invitation to ${i.email}`}>
            <X size={14} aria-hidden="true" /> Revoke
          </button>
        </div>
      ),
    },
  ];

  return (
    <Card title="Invite by email" titleId="invitations-title" aria-labelledby="invitations-title" style={{ marginTop: 16 }}>
      <form className="grid-2" onSubmit={onSubmit} noValidate aria-label="Invite by email">
        <Field label="Email" htmlFor="invite-email" error={error} hint="They choose their username and password.">
          <input
            id="invite-email"
            type="email"
            className="input"
            value={email}
            aria-invalid={!!error}
            onChange={(e) => setEmail(e.target.value)}
          />
        </Field>
        <Field label="Role" htmlFor="invite-role">
          <select id="invite-role" className="select" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r[0].toUpperCase() + r.slice(1)}
              </option>
            ))}
          </select>
        </Field>
        <div>
          <button type="submit" className="btn btn-primary" disabled={inviting}>
            {inviting ? <Spinner small label="Sending" /> : <Mail size={16} aria-hidden="true" />}
            Send invitation
          </button>
        </div>
      </form>
      <PlanNotice error={refused} />
      <h3 style={{ margin: '8px 0 0', fontSize: 15 }}>Pending invitations</h3>
      <QueryState query={invitations} compact {...STATES} isEmpty={(list) => list.length === 0}>
        {(list) => <DataTable rows={list} rowKey={(i) => i.id} columns={columns} label="Pending invitations" />}
      </QueryState>
      <ConfirmDialog title="Revoke invitation" confirmLabel="Revoke" {...revoking.dialog}>
        <p style={{ margin: 0 }}>
          The link sent to <strong>{revoking.item?.email}</strong> will stop working.
        </p>
      </ConfirmDialog>
    </Card>
  );
}
