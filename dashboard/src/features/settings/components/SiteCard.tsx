import { Link } from 'react-router';
import { Globe } from 'lucide-react';
import { useGetSiteQuery } from '@/api/site';
import { Card, CardRow } from '@/components/Card';
import { QueryState } from '@/components/QueryState';

/** Settings → Site: the site's title, address and navigation in short, and the way to all of it. */
export function SiteCard({ canEdit, companyName }: { canEdit: boolean; companyName: string }) {
  const site = useGetSiteQuery();
  return (
    <Card
      title="Site"
      titleId="site"
      aria-labelledby="site"
      style={{ marginTop: 16 }}
      body="rows"
      aside={
        <Link className="btn btn-secondary btn-sm" to="/dashboard/settings/site">
          <Globe size={14} aria-hidden="true" /> {canEdit ? 'Edit site settings' : 'View site settings'}
        </Link>
      }
    >
      <QueryState query={site} compact loading="Loading the site settings" error="Could not load the site settings">
        {(data) => (
          <>
            <CardRow label="Title">{data.title || companyName}</CardRow>
            <CardRow label="Website address">{data.websiteUrl || <span className="muted">Not set</span>}</CardRow>
            <CardRow label="Navigation">
              {data.navigation.length} {data.navigation.length === 1 ? 'link' : 'links'}, {data.secondaryNavigation.length} in the
              secondary
            </CardRow>
          </>
        )}
      </QueryState>
    </Card>
  );
}
