import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trash2 } from 'lucide-react';
import { z } from 'zod';
import { useDeleteCompanyMutation } from '@/api/company';
import { Card } from '@/components/Card';
import { Dialog } from '@/components/Dialog';
import { bind, PasswordField, TextField } from '@/components/form';
import { Spinner } from '@/components/Spinner';
import { useCmsConfig } from '@/lib/configContext';
import { errorMessage, isApiError } from '@/lib/errors';
import { useAppDispatch } from '@/lib/hooks';
import { loggedOut } from '@/lib/session';

function schemaFor(subdomain: string) {
  return z.object({
    confirmSubdomain: z
      .string()
      .trim()
      .refine((v) => v === subdomain, "Type your company's subdomain exactly to confirm"),
    password: z.string().min(1, 'Password is required'),
  });
}
type Values = z.infer<ReturnType<typeof schemaFor>>;

/** Admins only: the company, its posts, media and users are deleted for good. */
export function DeleteCompany({ subdomain, name }: { subdomain: string; name: string }) {
  const [open, setOpen] = useState(false);
  const [deleteCompany, { isLoading }] = useDeleteCompanyMutation();
  const dispatch = useAppDispatch();
  const { rootDomain } = useCmsConfig();
  const form = useForm<Values>({ resolver: zodResolver(schemaFor(subdomain)), defaultValues: { confirmSubdomain: '', password: '' } });
  const { handleSubmit, setError, reset } = form;
  const { errors } = form.formState;

  const close = () => {
    setOpen(false);
    reset();
  };
  const onSubmit = handleSubmit(async (values) => {
    try {
      await deleteCompany(values).unwrap();
      dispatch(loggedOut());
      const port = window.location.port ? `:${window.location.port}` : '';
      window.location.assign(`${window.location.protocol}//${rootDomain}${port}/login?deleted=${encodeURIComponent(name)}`);
    } catch (error) {
      const fields = isApiError(error) ? error.errors ?? [] : [];
      for (const { field, message } of fields) {
        if (field === 'confirmSubdomain' || field === 'password') setError(field, { message });
      }
      if (!fields.length) setError('root', { message: errorMessage(error, 'The company could not be deleted') });
    }
  });

  return (
    <Card title="Delete Company" titleId="delete-company-title" className="danger-zone" aria-labelledby="delete-company-title">
      <p style={{ margin: 0 }}>
        Deleting {name} removes its posts, categories, tags, media, users and statistics for good. Websites using its
        API key stop receiving content at once.
      </p>
      <div>
        <button type="button" className="btn btn-danger" onClick={() => setOpen(true)}>
          <Trash2 size={16} /> Delete Company
        </button>
      </div>
      <Dialog
        open={open}
        title="Delete company"
        onClose={close}
        footer={
          <>
            <button type="button" className="btn btn-secondary" onClick={close} disabled={isLoading}>
              Cancel
            </button>
            <button type="submit" form="delete-company-form" className="btn btn-danger" disabled={isLoading}>
              {isLoading ? <Spinner small label="Deleting" /> : null}
              Delete Forever
            </button>
          </>
        }
      >
        <form id="delete-company-form" className="stack" onSubmit={onSubmit} noValidate>
          <p style={{ margin: 0 }}>
            This cannot be undone. Type <strong>{subdomain}</strong> and your password to confirm.
          </p>
          <TextField label="Company subdomain" autoComplete="off" {...bind(form, 'confirmSubdomain')} id="confirm-subdomain" />
          <PasswordField label="Your password" autoComplete="current-password" {...bind(form, 'password')} id="confirm-password" />
          {errors.root ? (
            <p role="alert" className="field-error" style={{ margin: 0 }}>
              {errors.root.message}
            </p>
          ) : null}
        </form>
      </Dialog>
    </Card>
  );
}
