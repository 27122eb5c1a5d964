import { useLocation } from 'react-router';
import { toast } from 'sonner';
import { useGetClientInfoQuery } from '@/api/company';
import { useCan } from '@/api/session';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { ApiDocs } from '../components/ApiDocs';
import { ApiStatus } from '../components/ApiStatus';
import { CompanyProfile } from '../components/CompanyProfile';
import { DeleteCompany } from '../components/DeleteCompany';
import { IntegrationGuide } from '../components/IntegrationGuide';
import { LanguagesCard } from '../components/LanguagesCard';
import { NewslettersCard } from '../components/NewslettersCard';
import { OutgoingMessages } from '../components/OutgoingMessages';
import { QuickActions } from '../components/QuickActions';
import { SiteCard } from '../components/SiteCard';
import { SupportAccess } from '../components/SupportAccess';
import { TwoFactorPolicy } from '../components/TwoFactorPolicy';
import { UsageCard } from '../components/UsageCard';

/** Settings: the company, quick actions, the content API's guide and status, and (admins) the
 * plan's usage, the two-factor policy, support access, the outgoing messages and the danger zone. */
export function Settings() {
  const isAdmin = useCan('settings.manage');
  const canDeleteCompany = useCan('company.delete');
  const info = useGetClientInfoQuery();
  const { hash } = useLocation();

  async function refresh() {
    const result = await info.refetch();
    if (result.isError) toast.error('Failed to refresh client information');
    else toast.success('Client information refreshed');
  }

  return (
    <>
      <PageHeader title="Settings" description="Company details and the content API guide" search={false} />
      <QueryState
        query={info}
        boxed
        loading="Loading settings..."
        error="Failed to load client information"
        errorActions={
          <button type="button" className="btn btn-ghost" onClick={() => window.location.reload()}>
            Refresh Page
          </button>
        }
      >
        {(data) => (
          <>
            <div className="grid-2" style={{ alignItems: 'start' }}>
              <CompanyProfile company={data.company} editable={isAdmin} />
              <QuickActions info={data} canManage={isAdmin} onRefresh={refresh} />
            </div>
            <SiteCard canEdit={isAdmin} companyName={data.company.name} />
            <NewslettersCard />
            <ApiDocs apiInfo={data.apiInfo} />
            <div className="grid-2" style={{ alignItems: 'start' }}>
              <ApiStatus info={data} />
              <IntegrationGuide apiInfo={data.apiInfo} />
            </div>
            <LanguagesCard />
            <UsageCard arrivedAt={hash === '#usage'} />
            <TwoFactorPolicy />
            <SupportAccess />
            <OutgoingMessages />
            {canDeleteCompany ? <DeleteCompany subdomain={data.company.subdomain} name={data.company.name} /> : null}
          </>
        )}
      </QueryState>
    </>
  );
}
