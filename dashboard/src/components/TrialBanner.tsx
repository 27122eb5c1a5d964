import { Link } from 'react-router';
import { useGetClientInfoQuery } from '@/api/company';
import { USAGE_PATH } from './PlanNotice';

/** After the trial's end: the dashboard is read-only (writes answer 403 plan_expired) until the plan
 *  changes; nothing is deleted. */
export function TrialBanner() {
  const { data } = useGetClientInfoQuery();
  if (data?.company.subscriptionStatus !== 'expired') return null;
  return (
    <div className="notice notice-danger banner" role="status">
      <span>
        <strong>Your trial has ended.</strong> The dashboard is read-only until your plan is changed; your websites keep
        reading your content for a few more days. Nothing has been deleted.{' '}
        <Link to={USAGE_PATH} style={{ textDecoration: 'underline' }}>
          See your plan and usage
        </Link>
      </span>
    </div>
  );
}
