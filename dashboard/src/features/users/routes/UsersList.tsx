import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { Mail, Pencil, Plus, RefreshCw, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { useCan } from '@/api/session';
import { useDeleteUserMutation, useGetUsersQuery, useInviteUserMutation, userId, type User } from '@/api/users';
import { Badge } from '@/components/Badge';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { DataTable, type Column } from '@/components/DataTable';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { RowMenu } from '@/components/RowMenu';
import { useConfirmAction } from '@/components/useConfirmAction';
import { errorMessage } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { useAppSelector } from '@/lib/hooks';
import { selectUser } from '@/lib/session';
import { Invitations } from '../components/Invitations';

const STATUS_TONE: Record<string, string> = { active: 'success', suspended: 'danger', inactive: 'warning' };
const STATES = { loading: 'Loading users...', error: 'Failed to load users. Please try again.', empty: 'No users found. Create your first user!' };

export function UsersList() {
  const me = useAppSelector(selectUser);
  const isMe = (u: User) => !!me && userId(u) === String(me.userId);
  const navigate = useNavigate();
  const users = useGetUsersQuery();
  const [deleteUser] = useDeleteUserMutation();
  const [inviteUser] = useInviteUserMutation();
  const canInvite = useCan('users.manage');
  // An inactive account (one a blog import made waits so, without a password) is offered an
  // invitation; the server refuses one that has a password (409) or no seat left (plan_limit).
  const invite = useConfirmAction((user: User) => inviteUser(userId(user)).unwrap(), {
    done: 'Invitation sent',
    failed: (err) => errorMessage(err, 'Could not send the invitation'),
  });
  const remove = useConfirmAction((user: User) => deleteUser(userId(user)).unwrap(), {
    done: 'User deleted successfully',
    failed: (err) => errorMessage(err, 'Failed to delete user'),
  });

  useEffect(() => {
    if (users.isError) toast.error('Error loading users. Please try again.');
  }, [users.isError]);

  function askDelete(user: User) {
    if (isMe(user)) toast.error('You cannot delete your own account');
    else remove.ask(user);
  }

  const columns: Column<User>[] = [
    { header: 'Username', primary: true, cell: (u) => <strong>{u.username}</strong> },
    { header: 'Email', className: 'muted', cell: (u) => u.email },
    { header: 'Role', cell: (u) => <Badge tone="primary">{u.role}</Badge> },
    { header: 'Status', cell: (u) => <Badge tone={STATUS_TONE[u.status]}>{u.status}</Badge> },
    { header: 'Last Login', className: 'small', cell: (u) => (u.lastLogin ? formatDateTime(u.lastLogin) : 'Never') },
    {
      header: 'Actions',
      actions: true,
      width: 80,
      cell: (u) => (
        <RowMenu
          label={`Actions for ${u.username}`}
          items={[
            { label: 'Edit', icon: <Pencil size={14} />, onSelect: () => navigate(`/dashboard/users/edit/${userId(u)}`) },
            ...(canInvite && u.status === 'inactive' ? [{ label: 'Invite', icon: <Mail size={14} />, onSelect: () => invite.ask(u) }] : []),
            // One's own account is never offered for deletion (the server refuses it too).
            ...(isMe(u) ? [] : [{ label: 'Delete', icon: <Trash2 size={14} />, danger: true, onSelect: () => askDelete(u) }]),
          ]}
        />
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Users"
        description="Manage user accounts and permissions"
        search={false}
        iconButton={{ icon: <RefreshCw size={16} />, label: 'Refresh', onClick: () => users.refetch() }}
        action={{ label: 'Add User', to: '/dashboard/users/new', icon: <Plus size={16} /> }}
      />
      <section className="card">
        <QueryState query={users} {...STATES} isEmpty={(list) => list.length === 0}>
          {(list) => <DataTable rows={list} rowKey={userId} columns={columns} />}
        </QueryState>
      </section>
      <Invitations />
      <ConfirmDialog title="Invite user" confirmLabel="Send invitation" tone="primary" {...invite.dialog}>
        <p style={{ margin: 0 }}>
          Send an invitation to <strong>{invite.item?.email}</strong>? They choose a password, and the account{' '}
          <strong>{invite.item?.username}</strong> becomes active with its posts.
        </p>
      </ConfirmDialog>
      <ConfirmDialog title="Delete user" {...remove.dialog}>
        <p style={{ margin: 0 }}>
          Are you sure you want to permanently delete <strong>{remove.item?.username}</strong>? This action cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
