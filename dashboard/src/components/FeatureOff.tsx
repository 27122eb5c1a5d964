import { Link } from 'react-router';
import { useFeatureEnabled, type PlanFeature } from '@/api/company';
import { USAGE_PATH } from './PlanNotice';

const TEXT: Record<PlanFeature, string> = {
  aiWriting: 'Your plan does not include AI writing. Ask us for a plan that includes it.',
  webhooks:
    'Your plan does not include webhooks. Your endpoints and their deliveries are kept; nothing is sent until your plan includes webhooks again. Ask us for a plan that includes them.',
};

/** The way out when the company's plan does not include a feature (the server answers its requests
 *  with 403 `plan_feature`); nothing when it does. */
export function FeatureOff({ feature }: { feature: PlanFeature }) {
  const enabled = useFeatureEnabled(feature);
  if (enabled) return null;
  return (
    <div className="notice notice-warning" role="status" data-testid={`feature-off-${feature}`}>
      {TEXT[feature]}{' '}
      <Link to={USAGE_PATH} style={{ color: 'inherit', fontWeight: 600, textDecoration: 'underline' }}>
        See your plan and usage
      </Link>
    </div>
  );
}
