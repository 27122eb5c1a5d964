import { Link } from 'react-router';
import { errorMessage, isPlanRefusal } from '@/lib/errors';

/** A write the company's plan refused (`plan_limit`, `plan_expired`): the server's message, which
 *  names the limit ("Your plan allows 3 staff accounts."), and the way to the plan's usage. */
export function PlanNotice({ error }: { error: unknown }) {
  if (!isPlanRefusal(error)) return null;
  return (
    <div className="notice notice-warning" role="alert">
      {errorMessage(error)} <Link to="/dashboard/settings#usage" style={{ color: 'inherit', fontWeight: 600, textDecoration: 'underline' }}>
        See your plan and usage
      </Link>
    </div>
  );
}
