import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useSearchParams } from 'react-router';
import { bind, TextField } from '@/components/form';
import { tenantLoginUrl } from '@/lib/config';
import { useCmsConfig } from '@/lib/configContext';
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
      </section>
    </main>
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
