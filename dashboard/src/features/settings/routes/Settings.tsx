import { toast } from 'sonner';
import { useGetClientInfoQuery } from '@/api/company';
import { useCan } from '@/api/session';
import { PageHeader } from '@/components/PageHeader';
import { ErrorState, LoadingState } from '@/components/ui';
import { ApiDocs } from '../components/ApiDocs';
import { ApiStatus } from '../components/ApiStatus';
import { CompanyProfile } from '../components/CompanyProfile';
import { DeleteCompany } from '../components/DeleteCompany';
import { IntegrationGuide } from '../components/IntegrationGuide';
import { QuickActions } from '../components/QuickActions';

/** Settings: the company, quick actions, the content API's guide and status, and (admins) the
 * danger zone. */
export function Settings() {
  const isAdmin = useCan('settings.manage');
  const canDeleteCompany = useCan('company.delete');
  const { data, isLoading, isError, refetch } = useGetClientInfoQuery();

  async function refresh() {
    const result = await refetch();
    if (result.isError) toast.error('Failed to refresh client information');
    else toast.success('Client information refreshed');
  }

  const header = <PageHeader title="Settings" description="Company details and the content API guide" search={false} />;
  if (isLoading) {
    return (
      <>
        {header}
        <LoadingState label="Loading settings..." />
      </>
    );
  }
  if (isError) {
    return (
      <>
        {header}
        <section className="card">
          <ErrorState title="Failed to load client information" onRetry={() => refetch()} />
          <div className="row" style={{ justifyContent: 'center', paddingBottom: 24 }}>
            <button type="button" className="btn btn-ghost" onClick={() => window.location.reload()}>
              Refresh Page
            </button>
          </div>
        </section>
      </>
    );
  }
  if (!data) {
    return (
      <>
        {header}
        <section className="card state">
          <span>No client information available.</span>
          <button type="button" className="btn btn-secondary" onClick={() => refetch()}>
            Reload Data
          </button>
        </section>
      </>
    );
  }

  return (
    <>
      {header}
      <div className="grid-2" style={{ alignItems: 'start' }}>
        <CompanyProfile company={data.company} editable={isAdmin} />
        <QuickActions info={data} canManage={isAdmin} onRefresh={refresh} />
      </div>
      <ApiDocs apiInfo={data.apiInfo} />
      <div className="grid-2" style={{ alignItems: 'start' }}>
        <ApiStatus info={data} />
        <IntegrationGuide apiInfo={data.apiInfo} />
      </div>
      {canDeleteCompany ? <DeleteCompany subdomain={data.company.subdomain} name={data.company.name} /> : null}
    </>
  );
}
