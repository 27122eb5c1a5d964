import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { PageHeader } from '@/components/PageHeader';
import { PasswordInput } from '@/components/PasswordInput';
import { QueryState } from '@/components/QueryState';
import { Field } from '@/components/ui';
import { useCapabilities } from '@/api/session';
import { useCreateUserMutation, useGetUserQuery, useUpdateUserMutation, type UserUpdateBody } from '@/api/users';
import { errorMessage, isApiError } from '@/lib/errors';
import { capitalize as cap } from '@/lib/format';
import { useAppDispatch, useAppSelector } from '@/lib/hooks';
import { loggedIn, selectUser, userChanged, type Role } from '@/lib/session';
import {
  createUserSchema,
  CURRENT_PASSWORD_REQUIRED,
  needsCurrentPassword,
  ROLES,
  STATUSES,
  type CreateUserValues,
  type EditUserValues,
} from '../schemas';


export function UserCreate() {
  const navigate = useNavigate();
  const [create] = useCreateUserMutation();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<CreateUserValues>({
    resolver: zodResolver(createUserSchema),
    defaultValues: { username: '', email: '', password: '', role: 'viewer' },
  });

  async function onSubmit(v: CreateUserValues) {
    try {
      const reply = await create({ username: v.username.trim(), email: v.email.trim(), password: v.password, role: v.role as Role }).unwrap();
      toast.success(reply?.message || 'User created successfully');
      navigate('/dashboard/users');
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to create user'));
    }
  }

  return (
    <>
      <PageHeader title="Create New User" description="Add a team member" search={false} />
      <form className="card card-body stack" style={{ maxWidth: 640 }} noValidate onSubmit={handleSubmit(onSubmit)}>
        <Field label="Username" htmlFor="username" error={errors.username?.message}>
          <input id="username" className="input" aria-invalid={!!errors.username} {...register('username')} />
        </Field>
        <Field label="Email" htmlFor="email" error={errors.email?.message}>
          <input id="email" type="email" className="input" aria-invalid={!!errors.email} {...register('email')} />
        </Field>
        <Field label="Password" htmlFor="password" error={errors.password?.message}>
          <PasswordInput id="password" autoComplete="new-password" aria-invalid={!!errors.password} {...register('password')} />
        </Field>
        <Field label="Role" htmlFor="role" error={errors.role?.message}>
          <select id="role" className="select" aria-invalid={!!errors.role} {...register('role')}>
            <option value="">Select a role</option>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {cap(r)}
              </option>
            ))}
          </select>
        </Field>
        <div className="row" style={{ justifyContent: 'flex-end' }}>
          <Link to="/dashboard/users" className="btn btn-secondary">
            Cancel
          </Link>
          <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
            {isSubmitting ? 'Creating...' : 'Create User'}
          </button>
        </div>
      </form>
    </>
  );
}

/** My account: every signed-in user's own record (username, email, password with the current
 *  password). Reached from the sidebar's user block; saving stays here. */
export function MyAccount() {
  return <UserEdit self />;
}

export function UserEdit({ self = false }: { self?: boolean }) {
  const params = useParams();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const me = useAppSelector(selectUser);
  const userId = self ? String(me?.userId ?? '') : (params.userId ?? '');
  const { capabilities, ready } = useCapabilities();
  const isAdmin = capabilities.has('users.manage');
  const own = !!me && String(me.userId) === userId;
  const allowed = isAdmin || own;
  // Where saving and Cancel lead: the Users list for admins editing from it, else the account page.
  const back = self || !isAdmin ? '/dashboard/account' : '/dashboard/users';
  const user = useGetUserQuery(userId, { skip: !userId || !ready || !allowed });
  const { data, isError } = user;
  const [update] = useUpdateUserMutation();
  const {
    register,
    handleSubmit,
    reset,
    watch,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<EditUserValues>({
    defaultValues: { username: '', email: '', password: '', currentPassword: '', role: 'author', status: 'active' },
  });
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
      reset({
        username: data.username,
        email: data.email,
        password: '',
        currentPassword: '',
        role: data.role || 'author',
        status: data.status || 'active',
      });
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
      toast.error(isApiError(err) ? errorMessage(err, 'Failed to update user') : 'An error occurred while updating the user');
      const wrongCurrent = isApiError(err) ? err.errors?.find((e) => e.field === 'currentPassword') : undefined;
      if (wrongCurrent) setError('currentPassword', { message: wrongCurrent.message }, { shouldFocus: true });
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
      {(data) => (
    <>
      {self ? (
        <PageHeader title="My account" description="Your username, email and password" search={false} />
      ) : (
        <PageHeader title={`Edit User: ${data.username}`} description="Update the account" search={false} />
      )}
      <form className="card card-body stack" style={{ maxWidth: 640 }} noValidate onSubmit={handleSubmit(onSubmit)}>
        <Field label="Username" htmlFor="username">
          <input id="username" className="input" {...register('username')} />
        </Field>
        <Field label="Email" htmlFor="email">
          <input id="email" type="email" className="input" {...register('email')} />
        </Field>
        <Field label="Password" htmlFor="password" hint="Only fill this if you want to change the password.">
          <PasswordInput
            id="password"
            autoComplete="new-password"
            placeholder="Leave blank to keep current password"
            {...register('password')}
          />
        </Field>
        {askCurrent ? (
          <Field
            label="Current password"
            htmlFor="currentPassword"
            hint="Needed to change your password or email."
            error={errors.currentPassword?.message}
          >
            <PasswordInput
              id="currentPassword"
              autoComplete="current-password"
              aria-invalid={!!errors.currentPassword}
              {...register('currentPassword')}
            />
          </Field>
        ) : null}
        {isAdmin && !self ? (
          <>
            <Field label="Role" htmlFor="role">
              <select id="role" className="select" {...register('role')}>
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {cap(r)}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Status" htmlFor="status">
              <select id="status" className="select" {...register('status')}>
                {STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {cap(s)}
                  </option>
                ))}
              </select>
            </Field>
          </>
        ) : null}
        <div className="row" style={{ justifyContent: 'flex-end' }}>
          <Link to={self ? '/dashboard' : back} className="btn btn-secondary">
            Cancel
          </Link>
          <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
            {isSubmitting ? 'Saving...' : 'Save Changes'}
          </button>
        </div>
      </form>
    </>
      )}
    </QueryState>
  );
}
