import { useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { useFindCompaniesMutation } from '@/api/session';
import { bind, TextField } from '@/components/form';
import { Spinner } from '@/components/Spinner';
import { tenantLoginUrl } from '@/lib/config';
import { useCmsConfig } from '@/lib/configContext';
import { errorMessage, fieldMessage } from '@/lib/errors';
import { companyLoginSchema, type CompanyLoginValues } from '../schemas';

/** Sign-in on the root domain: asks for the company subdomain and moves to that host. */
export function RootLogin() {
  const { rootDomain } = useCmsConfig();
  const [params] = useSearchParams();
  const deleted = params.get('deleted');
  const form = useForm<CompanyLoginValues>({ resolver: zodResolver(companyLoginSchema), defaultValues: { subdomain: '' } });

  function onSubmit({ subdomain }: CompanyLoginValues) {
    window.location.assign(tenantLoginUrl(subdomain, rootDomain));
  }

  return (
    <main className="auth-page">
      <section className="card auth-card">
        <h1>Sign In</h1>
        {deleted ? (
          <p role="status" className="notice">
            {deleted} has been deleted. Its data is being removed.
          </p>
        ) : null}
        <p className="muted" style={{ marginTop: 0 }}>Enter your company subdomain to continue to your sign-in page.</p>
        <form className="stack" onSubmit={form.handleSubmit(onSubmit)} noValidate>
          <TextField
            label="Company subdomain"
            placeholder="your-company"
            autoComplete="organization"
            suffix={`.${rootDomain}`}
            {...bind(form, 'subdomain')}
          />
          <button type="submit" className="btn btn-primary btn-block">
            Continue
          </button>
          <Link to="/register" className="btn btn-secondary btn-block">
            Create New Account
          </Link>
        </form>
        <FindCompanies />
      </section>
    </main>
  );
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** "Find my companies by email": the product emails the sign-in pages of the address's companies. */
function FindCompanies() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [find, { isLoading }] = useFindCompaniesMutation();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const value = email.trim();
    if (!value) return setError('Email is required');
    if (!EMAIL.test(value)) return setError('Please enter a valid email address');
    setError(null);
    try {
      setSent((await find({ email: value }).unwrap()).message);
    } catch (err) {
      const field = fieldMessage(err, 'email');
      if (field) setError(field);
      else toast.error(errorMessage(err, 'Could not send the email. Please try again.'));
    }
  }

  return (
    <section className="stack" aria-labelledby="find-companies-title" style={{ marginTop: 24, paddingTop: 16, borderTop: '1px solid #e5e7eb' }}>
      <h2 id="find-companies-title" className="h-sub">
        Find my companies by email
      </h2>
      {sent ? (
        <div className="notice notice-success" role="status">
          {sent}
        </div>
      ) : (
        <form className="stack" onSubmit={onSubmit} noValidate>
          <p className="muted" style={{ margin: 0 }}>
            Don't know your company's subdomain? We'll email you a link to the sign-in page of every company where
            your address has an account.
          </p>
          <TextField
            label="Your email"
            id="find-email"
            type="email"
            autoComplete="email"
            error={error ?? undefined}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <button type="submit" className="btn btn-secondary btn-block" disabled={isLoading}>
            {isLoading ? <Spinner small label="Sending" /> : null}
            Email me my sign-in pages
          </button>
        </form>
      )}
    </section>
  );
}

/** /register on a tenant host: registration lives on the root domain. */
export function RegisterOnRootDomain() {
  const { rootDomain } = useCmsConfig();
  const port = window.location.port ? `:${window.location.port}` : '';
  const url = `${window.location.protocol}//${rootDomain}${port}/register`;
  window.location.replace(url);
  return (
    <main className="auth-page">
      <p>
        Continue to <a href={url}>{url}</a>
      </p>
    </main>
  );
}
