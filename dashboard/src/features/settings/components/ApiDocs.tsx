import { useState } from 'react';
import { Eye, EyeOff } from 'lucide-react';
import type { ClientInfo } from '@/api/company';
import { Card, CardRow } from '@/components/Card';
import { Tabs } from '@/components/Tabs';

type DocTab = 'auth' | 'endpoints' | 'examples' | 'responses';
type ApiInfo = ClientInfo['apiInfo'];

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

function Code({ children }: { children: string }) {
  return (
    // Focusable: a long line scrolls sideways on a phone, and the keyboard must reach it.
    <pre tabIndex={0} className="small" style={{ background: '#0f172a', color: '#e2e8f0', padding: 12, borderRadius: 8, overflowX: 'auto', margin: 0 }}>
      {children}
    </pre>
  );
}

/** The key stays shown (or hidden) while other tabs are visited. */
function AuthPanel({ apiInfo, showKey, onToggle }: { apiInfo: ApiInfo; showKey: boolean; onToggle: () => void }) {
  const auth = apiInfo.authentication;
  const masked = showKey ? auth.apiKey : `${auth.apiKey.slice(0, 6)}${'•'.repeat(12)}`;
  return (
    <div className="stack" role="tabpanel" aria-label="Auth">
      <CardRow label="Method">{auth.method}</CardRow>
      <CardRow label="Header">
        <code>{auth.header}</code>
      </CardRow>
      <div className="list-row">
        <span className="muted">API key</span>
        <span className="row">
          <code data-testid="api-key">{masked}</code>
          <button type="button" className="btn btn-ghost btn-icon" aria-label={showKey ? 'Hide API key' : 'Show API key'} onClick={onToggle}>
            {showKey ? <EyeOff size={14} /> : <Eye size={14} />}
          </button>
        </span>
      </div>
      <p className="small muted" style={{ margin: 0 }}>{auth.note}</p>
      <Code>{`${auth.header}: ${masked}`}</Code>
      <GhostKey ghost={apiInfo.ghost} showKey={showKey} />
    </div>
  );
}

/** The Ghost content key, for websites built on Ghost's Content API client (rotated with the API key). */
function GhostKey({ ghost, showKey }: { ghost: ApiInfo['ghost']; showKey: boolean }) {
  const masked = showKey ? ghost.contentApiKey : `${ghost.contentApiKey.slice(0, 6)}${'•'.repeat(12)}`;
  return (
    <div className="stack" style={{ gap: 4 }}>
      <strong className="small">Ghost Content API</strong>
      <CardRow label="Ghost content key">
        <code data-testid="ghost-key">{masked}</code>
      </CardRow>
      <p className="small muted" style={{ margin: 0 }}>
        A website built on Ghost&apos;s Content API keeps working: give its client this address and key (read-only,
        published content; rotated together with the API key).
      </p>
      <Code>{`new GhostContentAPI({ url: '${ghost.url}', key: '${masked}', version: '${ghost.version}' })`}</Code>
    </div>
  );
}

function EndpointsPanel({ apiInfo }: { apiInfo: ApiInfo }) {
  const ep = apiInfo.endpoints.posts;
  return (
    <div className="stack" role="tabpanel" aria-label="Endpoints">
      <CardRow label="List posts">
        <code>GET {ep.list}</code>
      </CardRow>
      <CardRow label="Get a post by slug">
        <code>GET {ep.getBySlug}</code>
      </CardRow>
      <CardRow label="Posts of a category">
        <code>GET {ep.getByCategory}</code>
      </CardRow>
      <CardRow label="Posts with a tag">
        <code>GET {ep.getByTag}</code>
      </CardRow>
      <p className="small muted" style={{ margin: 0 }}>
        List parameters: page (default 1), limit (default 10), status (published, draft, archived or all), search (title and
        content).
      </p>
    </div>
  );
}

function ExamplesPanel({ apiInfo }: { apiInfo: ApiInfo }) {
  const ex = apiInfo.exampleRequests;
  const examples = [
    ['All posts', ex.getAllPosts.url],
    ['Posts by category', ex.getPostsByCategory.url],
    ['Posts by tag', ex.getPostsByTag.url],
    ['Post by slug', ex.getPostBySlug.url],
  ] as const;
  return (
    <div className="stack" role="tabpanel" aria-label="Examples">
      {examples.map(([label, url]) => (
        <div key={label} className="stack" style={{ gap: 4 }}>
          <strong className="small">{label}</strong>
          <Code>{`curl -H "${apiInfo.authentication.header}: YOUR_API_KEY" "${url}"`}</Code>
        </div>
      ))}
    </div>
  );
}

function ResponsesPanel() {
  return (
    <div className="stack" role="tabpanel" aria-label="Responses">
      <strong className="small">Success (list)</strong>
      <Code>{LIST_RESPONSE}</Code>
      <strong className="small">Error</strong>
      <Code>{ERROR_RESPONSE}</Code>
    </div>
  );
}

/** API Documentation: how to call the content API, in four tabs. */
export function ApiDocs({ apiInfo }: { apiInfo: ApiInfo }) {
  const [tab, setTab] = useState<DocTab>('auth');
  const [showKey, setShowKey] = useState(false);
  return (
    <Card title="API Documentation" aside={<span className="small muted">{apiInfo.baseUrl}</span>}>
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
      {tab === 'auth' ? <AuthPanel apiInfo={apiInfo} showKey={showKey} onToggle={() => setShowKey((s) => !s)} /> : null}
      {tab === 'endpoints' ? <EndpointsPanel apiInfo={apiInfo} /> : null}
      {tab === 'examples' ? <ExamplesPanel apiInfo={apiInfo} /> : null}
      {tab === 'responses' ? <ResponsesPanel /> : null}
    </Card>
  );
}
