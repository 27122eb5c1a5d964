import { Link } from 'react-router';
import { Mail } from 'lucide-react';
import { members, NEWSLETTERS_PATH, useGetNewslettersQuery } from '@/api/newsletters';
import { useCan } from '@/api/session';
import { Card, CardRow } from '@/components/Card';
import { QueryState } from '@/components/QueryState';

/** Settings → Newsletters in short: each active newsletter with its members, and the way to all of
 * them (editors and admins manage them; every role reads them). */
export function NewslettersCard() {
  const canRead = useCan('members.read');
  const canManage = useCan('newsletters.manage');
  const list = useGetNewslettersQuery(undefined, { skip: !canRead, refetchOnMountOrArgChange: true });
  if (!canRead) return null;
  return (
    <Card
      title="Newsletters"
      titleId="newsletters"
      aria-labelledby="newsletters"
      style={{ marginTop: 16 }}
      body="rows"
      aside={
        <Link className="btn btn-secondary btn-sm" to={NEWSLETTERS_PATH}>
          <Mail size={14} aria-hidden="true" /> {canManage ? 'Manage newsletters' : 'View newsletters'}
        </Link>
      }
    >
      <QueryState query={list} compact loading="Loading the newsletters" error="Could not load the newsletters" empty="No newsletters yet.">
        {(data) => {
          const active = data.filter((n) => n.status === 'active');
          return active.length ? (
            active.map((n) => (
              <CardRow key={n.id} label={n.name}>
                {members(n.members)}
              </CardRow>
            ))
          ) : (
            <p className="muted" style={{ margin: '8px 0' }}>
              No active newsletter.
            </p>
          );
        }}
      </QueryState>
    </Card>
  );
}
