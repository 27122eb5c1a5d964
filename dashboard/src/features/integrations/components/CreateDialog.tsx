import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Dialog } from '@/components/Dialog';
import { bind, TextField } from '@/components/form';
import { PlanNotice } from '@/components/PlanNotice';
import { Spinner } from '@/components/Spinner';
import { errorMessage, fieldMessage, isPlanRefusal } from '@/lib/errors';
import { integrationSchema, type IntegrationValues } from '../schemas';

interface Props {
  busy: boolean;
  onCancel: () => void;
  /** Creates; a rejected promise's field error is shown on the name. */
  onCreate: (values: IntegrationValues) => Promise<void>;
}

/** "Add integration": its name (the tool's, as the activity log will show it). */
export function CreateDialog({ busy, onCancel, onCreate }: Props) {
  const formId = useId();
  const form = useForm<IntegrationValues>({ resolver: zodResolver(integrationSchema), defaultValues: { name: '' } });
  const [failure, setFailure] = useState<unknown>(null);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await onCreate(values);
    } catch (err) {
      const onName = fieldMessage(err, 'name');
      if (onName) form.setError('name', { message: onName }, { shouldFocus: true });
      else setFailure(err);
    }
  });

  return (
    <Dialog
      open
      title="Add integration"
      onClose={onCancel}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={busy}>
            {busy ? <Spinner small label="Creating" /> : null}
            Create integration
          </button>
        </>
      }
    >
      <form id={formId} className="stack" noValidate onSubmit={(e) => void submit(e)}>
        {isPlanRefusal(failure) ? (
          <PlanNotice error={failure} />
        ) : failure ? (
          <p className="notice notice-danger" role="alert" style={{ margin: 0 }}>
            {errorMessage(failure, 'Failed to create the integration')}
          </p>
        ) : null}
        <TextField
          label="Name"
          hint="The tool's name (iA Writer, Zapier): what it writes is recorded under it in the activity log."
          autoComplete="off"
          {...bind(form, 'name')}
          id="integration-name"
        />
      </form>
    </Dialog>
  );
}
