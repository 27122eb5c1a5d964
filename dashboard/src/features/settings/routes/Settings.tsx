import { useState } from 'react';
import { Copy, Download, Eye, EyeOff, KeyRound, Mail, RefreshCw, Webhook } from 'lucide-react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import {
  useGetClientInfoQuery,
  useRotateApiKeyMutation,
  useUpdateClientInfoMutation,
  type ClientInfo,
} from '@/api/company';
import { useCan } from '@/api/session';
import { copyText } from '@/lib/clipboard';
import { PageHeader } from '@/components/PageHeader';
import { Badge, ConfirmDialog, ErrorState, LoadingState, Tabs } from '@/components/ui';
import { useCmsConfig } from '@/lib/configContext';
import { errorMessage } from '@/lib/errors';
import { formatDate } from '@/lib/format';
import { buildApiGuide } from '../guide';
import { DeleteCompany } from '../components/DeleteCompany';

type DocTab = 'auth' | 'endpoints' | 'examples' | 'responses';

const LIST_RESPONSE = `{
  "success": true,
  "message": "Posts retrieved successfully",
  "data": {
    "posts": [{ "id": "...", "title": "...", "slug": "...", "excerpt": "...", "publishedAt": "..." }],
    "pagination": { "total": 1, "totalPages": 1, "currentPage": 1, "limit": 10 }
  }
}`;
const ERROR_RESPONSE = `{
  "success": false,
  "message": "Invalid or missing API key",
  "error": "unauthorized"
}`;

/** Company states in which the content API does not answer. */
const DOWN_STATES = ['suspended', 'inactive', 'cancelled', 'canceled', 'closed'];

/** The IANA zones this browser knows (the server checks against its own list). */
function zoneNames(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', current, ...known])];
}

/** The company's time zone: admins change it here; it sets the days of the analytics. */
function TimeZoneRow({ company, editable }: { company: ClientInfo['company']; editable: boolean }) {
  const current = company.timeZone || 'UTC';
  const [value, setValue] = useState(current);
  const [save, { isLoading }] = useUpdateClientInfoMutation();
  if (!editable) return <Row label="Time zone">{current}</Row>;
  return (
    <div className="list-row wrap">
      <label className="muted" htmlFor="company-time-zone">
        Time zone
      </label>
      <span className="row" style={{ flex: '1 1 200px', justifyContent: 'flex-end' }}>
        <select id="company-time-zone" className="select" style={{ maxWidth: 240 }} value={value} onChange={(e) => setValue(e.target.value)}>
          {zoneNames(current).map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={isLoading || value === current}
          onClick={async () => {
            try {
              const reply = await save({
                name: company.name,
                contactName: company.contactName,
                contactEmail: company.contactEmail,
                timeZone: value,
              }).unwrap();
              toast.success(reply.message || 'Client information updated successfully');
            } catch (err) {
              toast.error(errorMessage(err, 'Failed to update company settings'));
            }
          }}
        >
          Save
        </button>
      </span>
    </div>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="list-row">
      <span className="muted">{label}</span>
      <span style={{ textAlign: 'right', overflowWrap: 'anywhere' }}>{children}</span>
    </div>
  );
}

function Code({ children }: { children: string }) {
  return (
    <pre className="small" style={{ background: '#0f172a', color: '#e2e8f0', padding: 12, borderRadius: 8, overflowX: 'auto', margin: 0 }}>
      {children}
    </pre>
  );
}

function download(info: ClientInfo | null | undefined) {
  if (!info) {
    toast.error('No client information available to generate documentation');
    return;
  }
  try {
    const blob = new Blob([buildApiGuide(info)], { type: 'text/plain' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `api-guide-${info.company.subdomain}.txt`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    URL.revokeObjectURL(url);
  } catch {
    toast.error('Failed to generate documentation');
  }
}

export function Settings() {
  const { rootDomain } = useCmsConfig();
  const isAdmin = useCan('settings.manage');
  const canDeleteCompany = useCan('company.delete');
  const { data, isLoading, isError, refetch } = useGetClientInfoQuery();
  const [rotate, { isLoading: rotating }] = useRotateApiKeyMutation();
  const [tab, setTab] = useState<DocTab>('auth');
  const [showKey, setShowKey] = useState(false);
  const [confirmRotate, setConfirmRotate] = useState(false);

  async function refresh() {
    const result = await refetch();
    if (result.isError) toast.error('Failed to refresh client information');
    else toast.success('Client information refreshed');
  }

  async function doRotate() {
    try {
      const reply = await rotate().unwrap();
      toast.success(reply?.message || 'API key rotated');
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to update client information'));
    } finally {
      setConfirmRotate(false);
    }
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

  const { company, apiInfo } = data;
  const auth = apiInfo.authentication;
  const keyHeader = auth.header || 'x-api-key';
  const masked = showKey ? auth.apiKey : `${auth.apiKey.slice(0, 6)}${'•'.repeat(12)}`;
  const ep = apiInfo.endpoints.posts;
  const ex = apiInfo.exampleRequests;

  return (
    <>
      {header}
      <div className="grid-2" style={{ alignItems: 'start' }}>
        <section className="card">
          <div className="card-header">
            <h2 className="card-title">Company Information</h2>
          </div>
          <div className="card-body" style={{ paddingTop: 4, paddingBottom: 4 }}>
            <Row label="Company name">{company.name}</Row>
            <Row label="Contact person">{company.contactName}</Row>
            <Row label="Contact email">{company.contactEmail}</Row>
            <Row label="Subdomain">{company.subdomain}</Row>
            <Row label="Status">
              <Badge tone={DOWN_STATES.includes(company.status) ? 'danger' : 'success'}>{company.status}</Badge>
            </Row>
            <Row label="Plan">{company.subscriptionPlan}</Row>
            <Row label="Member since">{formatDate(company.createdAt)}</Row>
            <TimeZoneRow company={company} editable={isAdmin} />
          </div>
        </section>

        <section className="card">
          <div className="card-header">
            <h2 className="card-title">Quick Actions</h2>
          </div>
          <div className="card-body stack">
            <button type="button" className="btn btn-secondary" onClick={() => download(data)}>
              <Download size={16} /> Download API Guide
            </button>
            <button type="button" className="btn btn-secondary" onClick={refresh}>
              <RefreshCw size={16} /> Refresh Data
            </button>
            <button type="button" className="btn btn-secondary" onClick={() => copyText(auth.apiKey)}>
              <Copy size={16} /> Copy API Key
            </button>
            {isAdmin ? (
              <button type="button" className="btn btn-danger" onClick={() => setConfirmRotate(true)}>
                <KeyRound size={16} /> Rotate API Key
              </button>
            ) : null}
            {isAdmin ? (
              <Link className="btn btn-secondary" to="/dashboard/settings/webhooks">
                <Webhook size={16} /> Webhooks
              </Link>
            ) : null}
          </div>
        </section>
      </div>

      <section className="card">
        <div className="card-header">
          <h2 className="card-title">API Documentation</h2>
          <span className="small muted">{apiInfo.baseUrl}</span>
        </div>
        <div className="card-body stack">
          <Tabs<DocTab>
            label="API documentation"
            value={tab}
            onChange={setTab}
            tabs={[
              { id: 'auth', label: 'Auth' },
              { id: 'endpoints', label: 'Endpoints' },
              { id: 'examples', label: 'Examples' },
              { id: 'responses', label: 'Responses' },
            ]}
          />
          {tab === 'auth' ? (
            <div className="stack" role="tabpanel" aria-label="Auth">
              <Row label="Method">{auth.method}</Row>
              <Row label="Header">
                <code>{keyHeader}</code>
              </Row>
              <div className="list-row">
                <span className="muted">API key</span>
                <span className="row">
                  <code data-testid="api-key">{masked}</code>
                  <button type="button" className="btn btn-ghost btn-icon" aria-label={showKey ? 'Hide API key' : 'Show API key'} onClick={() => setShowKey((s) => !s)}>
                    {showKey ? <EyeOff size={14} /> : <Eye size={14} />}
                  </button>
                </span>
              </div>
              {auth.note ? <p className="small muted" style={{ margin: 0 }}>{auth.note}</p> : null}
              <Code>{`${keyHeader}: ${masked}`}</Code>
            </div>
          ) : null}
          {tab === 'endpoints' ? (
            <div className="stack" role="tabpanel" aria-label="Endpoints">
              <Row label="List posts">
                <code>GET {ep.list}</code>
              </Row>
              <Row label="Get a post by slug">
                <code>GET {ep.getBySlug}</code>
              </Row>
              <Row label="Posts of a category">
                <code>GET {ep.getByCategory}</code>
              </Row>
              <Row label="Posts with a tag">
                <code>GET {ep.getByTag}</code>
              </Row>
              <p className="small muted" style={{ margin: 0 }}>
                List parameters: page (default 1), limit (default 10), status (published, draft, archived or all), search
                (title and content).
              </p>
            </div>
          ) : null}
          {tab === 'examples' ? (
            <div className="stack" role="tabpanel" aria-label="Examples">
              {(
                [
                  ['All posts', ex.getAllPosts.url],
                  ['Posts by category', ex.getPostsByCategory.url],
                  ['Posts by tag', ex.getPostsByTag.url],
                  ['Post by slug', ex.getPostBySlug.url],
                ] as const
              ).map(([label, url]) => (
                <div key={label} className="stack" style={{ gap: 4 }}>
                  <strong className="small">{label}</strong>
                  <Code>{`curl -H "${keyHeader}: YOUR_API_KEY" "${url}"`}</Code>
                </div>
              ))}
            </div>
          ) : null}
          {tab === 'responses' ? (
            <div className="stack" role="tabpanel" aria-label="Responses">
              <strong className="small">Success (list)</strong>
              <Code>{LIST_RESPONSE}</Code>
              <strong className="small">Error</strong>
              <Code>{ERROR_RESPONSE}</Code>
            </div>
          ) : null}
        </div>
      </section>

      <div className="grid-2" style={{ alignItems: 'start' }}>
        <section className="card">
          <div className="card-header">
            <h2 className="card-title">API Status</h2>
          </div>
          <div className="card-body" style={{ paddingTop: 4, paddingBottom: 4 }}>
            <Row label="Content API">
              <Badge tone={DOWN_STATES.includes(company.status) ? 'danger' : 'success'}>
                {DOWN_STATES.includes(company.status) ? 'Unavailable' : 'Operational'}
              </Badge>
            </Row>
            <Row label="Subscription">{company.subscriptionStatus ?? company.subscriptionPlan}</Row>
            {apiInfo.rateLimit ? (
              <Row label="Rate limit">
                {apiInfo.rateLimit.requests} requests / {apiInfo.rateLimit.windowSeconds} s
              </Row>
            ) : null}
          </div>
        </section>
        <section className="card">
          <div className="card-header">
            <h2 className="card-title">Integration Guide</h2>
          </div>
          <div className="card-body stack">
            <ol style={{ margin: 0, paddingLeft: 18 }} className="stack">
              <li>Keep the API key on your server or in your site's build settings.</li>
              <li>
                Send it in the <code>{keyHeader}</code> header with every request to <code>{apiInfo.baseUrl}</code>.
              </li>
              <li>List published posts, then fetch each post by its slug to render it.</li>
              <li>Use the category and tag endpoints for archive pages.</li>
            </ol>
            <a className="btn btn-secondary" href={`mailto:support@${rootDomain}`}>
              <Mail size={16} /> Contact Support
            </a>
          </div>
        </section>
      </div>

      {canDeleteCompany ? <DeleteCompany subdomain={company.subdomain} name={company.name} /> : null}

      <ConfirmDialog
        open={confirmRotate}
        title="Rotate API key"
        confirmLabel="Rotate Key"
        busy={rotating}
        onCancel={() => setConfirmRotate(false)}
        onConfirm={doRotate}
      >
        <p style={{ margin: 0 }}>
          A new API key will be created and the current one stops working at once. Websites using it must be updated.
        </p>
      </ConfirmDialog>
    </>
  );
}
