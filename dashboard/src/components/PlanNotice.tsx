import type { MouseEvent } from 'react';
import { Link } from 'react-router';
import { useCan } from '@/api/session';
import { errorMessage, isPlanRefusal } from '@/lib/errors';

/** Where the company's plan and its use are shown (Settings → Usage). */
export const USAGE_PATH = '/dashboard/settings#usage';

const LINK_STYLE = { color: 'inherit', fontWeight: 600, textDecoration: 'underline' } as const;

type Follow = (event: MouseEvent<HTMLAnchorElement>) => void;

/** The way to Settings → Usage for those who can read it (admins); the others are told who can.
 *  `onFollow`: in a toast (drawn outside the router), a plain link whose click the toast handles. */
export function UsageLink({ onFollow }: { onFollow?: Follow }) {
  const canRead = useCan('usage.read');
  if (!canRead) return <span>An administrator can see the plan and its usage in Settings.</span>;
  if (onFollow) {
    return (
      <a href={USAGE_PATH} style={LINK_STYLE} onClick={onFollow}>
        See your plan and usage
      </a>
    );
  }
  return (
    <Link to={USAGE_PATH} style={LINK_STYLE}>
      See your plan and usage
    </Link>
  );
}

/** A refusal by the company's plan (`plan_limit`, `plan_expired`, `plan_feature`): the server's
 *  message, which names the limit ("Your plan allows 3 staff accounts."), and the way to the usage. */
export function PlanRefusal({ error, onFollow }: { error: unknown; onFollow?: Follow }) {
  return (
    <span>
      {errorMessage(error)} <UsageLink onFollow={onFollow} />
    </span>
  );
}

/** A write the company's plan refused, as a notice in the form that sent it; nothing otherwise. */
export function PlanNotice({ error }: { error: unknown }) {
  if (!isPlanRefusal(error)) return null;
  return (
    <div className="notice notice-warning" role="alert">
      <PlanRefusal error={error} />
    </div>
  );
}
