import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { useCapabilities, useTwoFactorState } from '@/api/session';
import { useGetUserQuery, useUpdateUserMutation, type UserUpdateBody } from '@/api/users';
import { bind, PasswordField, SelectField, TextField } from '@/components/form';
import { toastFailure } from '@/components/notify';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { errorMessage, fieldMessage, isApiError } from '@/lib/errors';
import { useAppDispatch, useAppSelector } from '@/lib/hooks';
import { loggedIn, selectUser, userChanged, type Role } from '@/lib/session';
import { AuthorProfile } from '../components/AuthorProfile';
import { TwoFactorReset } from '../components/TwoFactorReset';
import { TwoFactorSection } from '../components/TwoFactorSection';
import { UserFormActions } from '../components/UserFormActions';
import { CURRENT_PASSWORD_REQUIRED, needsCurrentPassword, ROLE_OPTIONS, STATUS_OPTIONS, type EditUserValues } from '../schemas';

/** Editing a user: admins from the Users list (role and status too), anyone their own record
 *  (My account). */
export function UserEdit({ self = false }: { self?: boolean }) {
  const params = useParams();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const me = useAppSelector(selectUser);
  const userId = self ? String(me?.userId ?? '') : (params.userId ?? '');
  const { capabilities, ready } = useCapabilities();
  const { setupRequired } = useTwoFactorState();
  const isAdmin = capabilities.has('users.manage');
  const own = !!me && String(me.userId) === userId;
  const allowed = isAdmin || own;
  // Where saving and Cancel lead: the Users list for admins editing from it, else the account page.
  const back = self || !isAdmin ? '/dashboard/account' : '/dashboard/users';
  const user = useGetUserQuery(userId, { skip: !userId || !ready || !allowed });
  const { data, isError } = user;
  const [update] = useUpdateUserMutation();
  const form = useForm<EditUserValues>({
    defaultValues: { username: '', email: '', password: '', currentPassword: '', role: 'author', status: 'active' },
  });
  const { reset, watch, setError } = form;
  const askCurrent = needsCurrentPassword(own, { email: watch('email'), password: watch('password') }, data?.email ?? '');

  useEffect(() => {
    if (!userId) {
      toast.error('User ID is missing');
      navigate(back, { replace: true });
    } else if (ready && !allowed) {
      toast.error("You don't have permission to edit this user");
      navigate(back, { replace: true });
    }
  }, [userId, ready, allowed, navigate, back]);

  useEffect(() => {
    if (isError) toast.error('Failed to load user data');
  }, [isError]);

  useEffect(() => {
    if (data) {
      const { username, email, role, status } = data;
      reset({ username, email, password: '', currentPassword: '', role: role || 'author', status: status || 'active' });
    }
  }, [data, reset]);

  async function onSubmit(v: EditUserValues) {
    const body: UserUpdateBody = { username: v.username.trim(), email: v.email.trim() };
    if (v.password) body.password = v.password; // blank keeps the current password
    if (needsCurrentPassword(own, v, data?.email ?? '')) {
      if (!v.currentPassword) {
        setError('currentPassword', { message: CURRENT_PASSWORD_REQUIRED }, { shouldFocus: true });
        return;
      }
      body.currentPassword = v.currentPassword;
    }
    if (isAdmin && !self) {
      body.role = v.role as Role;
      body.status = v.status as UserUpdateBody['status'];
    }
    try {
      const reply = await update({ id: userId, body }).unwrap();
      if (!reply?.success) {
        toast.error('Failed to update user');
        return;
      }
      // Changing one's own account: keep the session (a new token comes with a new password).
      if (own && me) {
        const user = { ...me, username: reply.user?.username ?? me.username };
        if (reply.token && reply.expiresIn) dispatch(loggedIn({ token: reply.token, expiresIn: reply.expiresIn, user }));
        else dispatch(userChanged({ username: user.username }));
      }
      toast.success(reply.message || 'User updated successfully');
      navigate(back);
    } catch (err) {
      toastFailure(err, isApiError(err) ? errorMessage(err, 'Failed to update user') : 'An error occurred while updating the user');
      const wrongCurrent = fieldMessage(err, 'currentPassword');
      if (wrongCurrent) setError('currentPassword', { message: wrongCurrent }, { shouldFocus: true });
    }
  }

  if (!userId || (ready && !allowed)) return null;
  return (
    <QueryState
      query={{ ...user, isLoading: !ready || user.isLoading }}
      loading="Loading user..."
      error="Failed to load user data"
      retry={false}
      boxed
      errorActions={
        <Link className="btn btn-secondary" to="/dashboard/users">
          Back to Users
        </Link>
      }
    >
      {(loaded) => (
        <>
          {self ? (
            <PageHeader title="My account" description="Your username, email and password, and your author profile" search={false} />
          ) : (
            <PageHeader title={`Edit User: ${loaded.username}`} description="Update the account" search={false} />
          )}
          <form className="card card-body stack" style={{ maxWidth: 640 }} noValidate onSubmit={form.handleSubmit(onSubmit)}>
            <TextField label="Username" {...bind(form, 'username')} />
            <TextField label="Email" type="email" {...bind(form, 'email')} />
            <PasswordField
              label="Password"
              hint="Only fill this if you want to change the password."
              placeholder="Leave blank to keep current password"
              autoComplete="new-password"
              {...bind(form, 'password')}
            />
            {askCurrent ? (
              <PasswordField label="Current password" hint="Needed to change your password or email." autoComplete="current-password" {...bind(form, 'currentPassword')} />
            ) : null}
            {isAdmin && !self ? (
              <>
                <SelectField label="Role" options={ROLE_OPTIONS} {...bind(form, 'role')} />
                <SelectField label="Status" options={STATUS_OPTIONS} {...bind(form, 'status')} />
              </>
            ) : null}
            <UserFormActions cancelTo={self ? '/dashboard' : back} busy={form.formState.isSubmitting} label="Save Changes" busyLabel="Saving..." />
          </form>
          {/* Until the required two-factor sign-in is set up, the server answers nothing else. */}
          {own && setupRequired ? null : <AuthorProfile userId={userId} own={own} />}
          {own ? <TwoFactorSection username={loaded.username} /> : null}
          {isAdmin && !own ? <TwoFactorReset userId={userId} username={loaded.username} enabled={!!loaded.twoFactorEnabled} /> : null}
        </>
      )}
    </QueryState>
  );
}
