import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Pencil, Plus, RefreshCw, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { PageHeader } from '@/components/PageHeader';
import { RowMenu } from '@/components/RowMenu';
import { Badge, ConfirmDialog, EmptyState, ErrorState, Spinner } from '@/components/ui';
import { useDeleteUserMutation, useGetUsersQuery, type User } from '@/api/users';
import { errorMessage } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { useAppSelector } from '@/lib/hooks';
import { selectUser } from '@/lib/session';
import { Invitations } from '../components/Invitations';

const STATUS_TONE: Record<string, string> = { active: 'success', suspended: 'danger', inactive: 'warning' };

export const userId = (u: User) => String(u.userId ?? u.id);

export function UsersList() {
  const me = useAppSelector(selectUser);
  const navigate = useNavigate();
  const { data, isLoading, isError, refetch } = useGetUsersQuery();
  const [deleteUser, { isLoading: deleting }] = useDeleteUserMutation();
  const [confirming, setConfirming] = useState<User | null>(null);

  useEffect(() => {
    if (isError) toast.error('Error loading users. Please try again.');
  }, [isError]);

  function askDelete(user: User) {
    if (me && userId(user) === String(me.userId)) {
      toast.error('You cannot delete your own account');
      return;
    }
    setConfirming(user);
  }

  async function confirmDelete() {
    if (!confirming) return;
    try {
      const reply = await deleteUser(userId(confirming)).unwrap();
      toast.success(reply?.message || 'User deleted successfully');
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to delete user'));
    } finally {
      setConfirming(null);
    }
  }

  const users = data ?? [];
  return (
    <>
      <PageHeader
        title="Users"
        description="Manage user accounts and permissions"
        search={false}
        iconButton={{ icon: <RefreshCw size={16} />, label: 'Refresh', onClick: () => refetch() }}
        action={{ label: 'Add User', to: '/dashboard/users/new', icon: <Plus size={16} /> }}
      />
      <section className="card">
        {isLoading ? (
          <div className="state">
            <Spinner label="Loading users" />
          </div>
        ) : isError ? (
          <ErrorState title="Failed to load users. Please try again." onRetry={() => refetch()} />
        ) : users.length === 0 ? (
          <EmptyState>No users found. Create your first user!</EmptyState>
        ) : (
          <div className="table-wrap">
            <table className="table stack-table">
              <thead>
                <tr>
                  <th>Username</th>
                  <th>Email</th>
                  <th>Role</th>
                  <th>Status</th>
                  <th>Last Login</th>
                  <th style={{ width: 80 }}>Actions</th>
                </tr>
              </thead>
              <tbody>
                {users.map((u) => (
                  <tr key={userId(u)}>
                    <td className="cell-primary">
                      <strong>{u.username}</strong>
                    </td>
                    <td className="muted" data-label="Email">{u.email}</td>
                    <td data-label="Role">
                      <Badge tone="primary">{u.role}</Badge>
                    </td>
                    <td data-label="Status">
                      <Badge tone={STATUS_TONE[u.status]}>{u.status}</Badge>
                    </td>
                    <td className="small" data-label="Last Login">{u.lastLogin ? formatDateTime(u.lastLogin) : 'Never'}</td>
                    <td className="cell-actions">
                      <RowMenu
                        label={`Actions for ${u.username}`}
                        items={[
                          { label: 'Edit', icon: <Pencil size={14} />, onSelect: () => navigate(`/dashboard/users/edit/${userId(u)}`) },
                          // One's own account is never offered for deletion (the server refuses it too).
                          ...(me && userId(u) === String(me.userId)
                            ? []
                            : [{ label: 'Delete', icon: <Trash2 size={14} />, danger: true, onSelect: () => askDelete(u) }]),
                        ]}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <Invitations />
      <ConfirmDialog open={!!confirming} title="Delete user" busy={deleting} onCancel={() => setConfirming(null)} onConfirm={confirmDelete}>
        <p style={{ margin: 0 }}>
          Are you sure you want to permanently delete <strong>{confirming?.username}</strong>? This action cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
