import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import {
  useCreateMemberMutation,
  useDeleteMemberMutation,
  useGetMemberQuery,
  useUpdateMemberMutation,
  type Member,
  type MemberChanges,
} from '@/api/members';
import { useCapabilities } from '@/api/session';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { ErrorState } from '@/components/ErrorState';
import { LoadingState } from '@/components/LoadingState';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { useConfirmAction } from '@/components/useConfirmAction';
import { errorMessage } from '@/lib/errors';
import { MEMBERS_PATH, MemberForm } from '../components/MemberForm';
import type { MemberValues } from '../schemas';

/** What an edit sends: every field of the form; the newsletters, and sending to a turned-off
 * address again, only when changed. */
export function changesOf(values: MemberValues, member: Member): MemberChanges {
  const body: MemberChanges = {
    email: values.email.trim(),
    name: values.name.trim(),
    note: values.note.trim(),
    status: values.status,
    labels: values.labels,
  };
  const before = member.newsletters.map((n) => n.id).sort();
  if ([...values.newsletters].sort().join() !== before.join()) body.newsletters = values.newsletters;
  if (values.sendAgain) body.emailDisabled = false;
  return body;
}

/** /dashboard/members/new (members.manage). */
export function MemberCreate() {
  const navigate = useNavigate();
  const { capabilities, ready } = useCapabilities();
  const [create, { isLoading }] = useCreateMemberMutation();
  const [failure, setFailure] = useState<unknown>(null);
  if (!ready) return <LoadingState />;
  if (!capabilities.has('members.manage')) {
    return (
      <>
        <PageHeader title="Add member" search={false} />
        <section className="card">
          <ErrorState title="Only editors and administrators can manage members." />
        </section>
      </>
    );
  }

  async function save(values: MemberValues) {
    const reply = await create({
      email: values.email.trim(),
      name: values.name.trim(),
      note: values.note.trim(),
      status: values.status,
      labels: values.labels,
    }).unwrap();
    toast.success(reply.message || 'Member added');
    navigate(MEMBERS_PATH);
  }

  return (
    <>
      <PageHeader title="Add member" description="A reader of your site or newsletter" search={false} />
      <MemberForm readOnly={false} busy={isLoading} onSave={save} failure={failure} onFailure={setFailure} />
    </>
  );
}

function MemberEditor({ member, canManage }: { member: Member; canManage: boolean }) {
  const navigate = useNavigate();
  const [update, { isLoading }] = useUpdateMemberMutation();
  const [remove] = useDeleteMemberMutation();
  const [failure, setFailure] = useState<unknown>(null);
  const deleting = useConfirmAction((target: Member) => remove(target.id).unwrap(), {
    done: 'Member deleted',
    failed: (err) => errorMessage(err, 'Failed to delete the member'),
    then: () => navigate(MEMBERS_PATH),
  });

  async function save(values: MemberValues) {
    const reply = await update({ id: member.id, body: changesOf(values, member) }).unwrap();
    toast.success(reply.message || 'Member updated');
    navigate(MEMBERS_PATH);
  }

  return (
    <>
      <PageHeader
        title={member.name || member.email}
        description={member.name ? member.email : canManage ? 'Edit this member' : 'Read only'}
        search={false}
      />
      <MemberForm
        key={member.updatedAt}
        member={member}
        readOnly={!canManage}
        busy={isLoading}
        onSave={save}
        failure={failure}
        onFailure={setFailure}
        extraActions={
          canManage ? (
            <button type="button" className="btn btn-ghost text-danger" onClick={() => deleting.ask(member)}>
              <Trash2 size={16} aria-hidden="true" /> Delete
            </button>
          ) : null
        }
      />
      <ConfirmDialog title="Delete member" {...deleting.dialog}>
        <p style={{ margin: 0 }}>
          Delete <strong className="break">{member.email}</strong>? They are taken off every newsletter and label. This cannot be
          undone.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** /dashboard/members/{id}: a member, editable by editors and admins, read only for the others. */
export function MemberEdit() {
  const { id = '' } = useParams();
  const { capabilities, ready } = useCapabilities();
  const member = useGetMemberQuery(id, { skip: !id, refetchOnMountOrArgChange: true });
  return (
    <QueryState
      query={{ ...member, data: ready ? member.data : undefined }}
      loading="Loading the member..."
      error="This member could not be loaded. It may have been deleted."
      boxed
    >
      {(data) => <MemberEditor member={data} canManage={capabilities.has('members.manage')} />}
    </QueryState>
  );
}
