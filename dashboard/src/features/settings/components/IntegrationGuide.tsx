import { Mail } from 'lucide-react';
import type { ClientInfo } from '@/api/company';
import { Card } from '@/components/Card';
import { useCmsConfig } from '@/lib/configContext';

/** Integration Guide: the steps of using the content API from a website, and support. */
export function IntegrationGuide({ apiInfo }: { apiInfo: ClientInfo['apiInfo'] }) {
  const { rootDomain } = useCmsConfig();
  return (
    <Card title="Integration Guide">
      <ol style={{ margin: 0, paddingLeft: 18 }} className="stack">
        <li>Keep the API key on your server or in your site's build settings.</li>
        <li>
          Send it in the <code>{apiInfo.authentication.header}</code> header with every request to <code>{apiInfo.baseUrl}</code>.
        </li>
        <li>List published posts, then fetch each post by its slug to render it.</li>
        <li>Use the category and tag endpoints for archive pages.</li>
      </ol>
      <a className="btn btn-secondary" href={`mailto:support@${rootDomain}`}>
        <Mail size={16} /> Contact Support
      </a>
    </Card>
  );
}
