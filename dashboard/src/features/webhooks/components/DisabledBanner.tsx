import { AlertTriangle } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { useGetWebhooksQuery } from '@/api/webhooks';
import { useAppSelector } from '@/lib/hooks';
import { selectUser } from '@/lib/session';

/** For admins, on the dashboard's home: an endpoint that failures turned off, with a link to it. */
export function WebhooksDisabledBanner() {
  const isAdmin = useAppSelector(selectUser)?.role === 'admin';
  const onHome = /^\/dashboard\/?$/.test(useLocation().pathname);
  const { data } = useGetWebhooksQuery(undefined, { skip: !isAdmin || !onHome });
  const disabled = (data?.endpoints ?? []).filter((e) => !e.active && e.disabledReason);
  if (!isAdmin || !onHome || disabled.length === 0) return null;
  const first = disabled[0];
  return (
    <div className="notice notice-danger banner" role="status">
      <AlertTriangle size={18} aria-hidden="true" />
      <span>
        {disabled.length === 1
          ? `A webhook endpoint was turned off after failed deliveries: ${first.url}.`
          : `${disabled.length} webhook endpoints were turned off after failed deliveries.`}{' '}
        <Link to={disabled.length === 1 ? `/dashboard/settings/webhooks/${first.id}` : '/dashboard/settings/webhooks'}>
          {disabled.length === 1 ? 'See the endpoint' : 'See the endpoints'}
        </Link>
      </span>
    </div>
  );
}
