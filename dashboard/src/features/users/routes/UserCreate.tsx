import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useCreateUserMutation } from '@/api/users';
import { bind, PasswordField, SelectField, TextField } from '@/components/form';
import { PageHeader } from '@/components/PageHeader';
import { toastError } from '@/components/notify';
import type { Role } from '@/lib/session';
import { UserFormActions } from '../components/UserFormActions';
import { createUserSchema, ROLE_OPTIONS, type CreateUserValues } from '../schemas';

/** Create New User: an admin adds a team member (username, email, password, role). */
export function UserCreate() {
  const navigate = useNavigate();
  const [create] = useCreateUserMutation();
  const form = useForm<CreateUserValues>({
    resolver: zodResolver(createUserSchema),
    defaultValues: { username: '', email: '', password: '', role: 'viewer' },
  });

  async function onSubmit(v: CreateUserValues) {
    try {
      const reply = await create({ username: v.username.trim(), email: v.email.trim(), password: v.password, role: v.role as Role }).unwrap();
      toast.success(reply?.message || 'User created successfully');
      navigate('/dashboard/users');
    } catch (err) {
      toastError(err, 'Failed to create user');
    }
  }

  return (
    <>
      <PageHeader title="Create New User" description="Add a team member" search={false} />
      <form className="card card-body stack" style={{ maxWidth: 640 }} noValidate onSubmit={form.handleSubmit(onSubmit)}>
        <TextField label="Username" {...bind(form, 'username')} />
        <TextField label="Email" type="email" {...bind(form, 'email')} />
        <PasswordField label="Password" autoComplete="new-password" {...bind(form, 'password')} />
        <SelectField label="Role" options={ROLE_OPTIONS} placeholder="Select a role" {...bind(form, 'role')} />
        <UserFormActions cancelTo="/dashboard/users" busy={form.formState.isSubmitting} label="Create User" busyLabel="Creating..." />
      </form>
    </>
  );
}
