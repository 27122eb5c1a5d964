import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { ShieldCheck } from 'lucide-react';
import { toast } from 'sonner';
import { useRegisterClientMutation } from '@/api/company';
import { bind, PasswordField, SubmitButton, TextField } from '@/components/form';
import { useCmsConfig } from '@/lib/configContext';
import { errorCode, errorMessage, isApiError } from '@/lib/errors';
import { AuthCard } from '../components/AuthCard';
import { registerSchema, STEP_ONE_FIELDS, type RegisterValues } from '../schemas';

const EMPTY: RegisterValues = {
  companyName: '',
  contactName: '',
  contactEmail: '',
  subdomain: '',
  adminUsername: '',
  adminEmail: '',
  adminPassword: '',
};

export function withCreatedFlag(url: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}created=1`;
}

export function Register() {
  const { rootDomain } = useCmsConfig();
  const [step, setStep] = useState<1 | 2>(1);
  const [registerClient, { isLoading }] = useRegisterClientMutation();
  const form = useForm<RegisterValues>({ resolver: zodResolver(registerSchema), defaultValues: EMPTY, shouldUnregister: false });
  const { handleSubmit, trigger, setError } = form;

  async function next() {
    if (await trigger([...STEP_ONE_FIELDS])) setStep(2);
  }

  async function onSubmit(values: RegisterValues) {
    try {
      const reply = await registerClient(values).unwrap();
      toast.success(reply.message || 'Registration successful');
      // The company's sign-in page says that it was created, with its name.
      window.location.assign(withCreatedFlag(reply.data?.loginUrl || '/login'));
    } catch (err) {
      toast.error(errorMessage(err, 'Registration failed'));
      if (isApiError(err) && err.errors?.length) {
        let backToStepOne = false;
        for (const e of err.errors) {
          if (e.field in EMPTY) {
            setError(e.field as keyof RegisterValues, { message: e.message });
            if ((STEP_ONE_FIELDS as readonly string[]).includes(e.field)) backToStepOne = true;
          }
        }
        if (backToStepOne) setStep(1);
      } else if (errorCode(err) === 'subdomain_taken') {
        setError('subdomain', { message: errorMessage(err) });
        setStep(1);
      }
    }
  }

  return (
    <AuthCard title="Create Account" subtitle={step === 1 ? 'Step 1 of 2: Company Information' : 'Step 2 of 2: Admin Account'}>
      <div className="steps" aria-hidden="true">
        <span className="step active" />
        <span className={step === 2 ? 'step active' : 'step'} />
      </div>
      <form className="stack" onSubmit={handleSubmit(onSubmit)} noValidate>
        <fieldset className="stack" hidden={step !== 1} style={{ border: 0, padding: 0, margin: 0 }}>
          <h2 className="card-title">Company Information</h2>
          <TextField label="Company Name" {...bind(form, 'companyName')} />
          <TextField label="Contact Name" {...bind(form, 'contactName')} />
          <TextField label="Contact Email" type="email" {...bind(form, 'contactEmail')} />
          <TextField
            label="Subdomain"
            hint={`Your dashboard will be at your-subdomain.${rootDomain}`}
            suffix={`.${rootDomain}`}
            {...bind(form, 'subdomain')}
          />
          <button type="button" className="btn btn-primary btn-block" onClick={next}>
            Continue
          </button>
        </fieldset>
        <fieldset className="stack" hidden={step !== 2} style={{ border: 0, padding: 0, margin: 0 }}>
          <h2 className="card-title">Admin Account</h2>
          <p className="row small muted" style={{ margin: 0 }}>
            <ShieldCheck size={16} aria-hidden="true" /> As the admin, you will have full control over the CMS.
          </p>
          <TextField label="Username" autoComplete="username" {...bind(form, 'adminUsername')} />
          <TextField label="Email" type="email" autoComplete="email" {...bind(form, 'adminEmail')} />
          <PasswordField label="Password" hint="At least 8 characters" autoComplete="new-password" {...bind(form, 'adminPassword')} />
          <div className="row">
            <button type="button" className="btn btn-secondary" onClick={() => setStep(1)}>
              Previous
            </button>
            <SubmitButton busy={isLoading} busyLabel="Creating account" className="grow">
              Create Account
            </SubmitButton>
          </div>
        </fieldset>
        <Link to="/login" className="btn btn-ghost btn-block">
          Back to Login
        </Link>
      </form>
    </AuthCard>
  );
}
