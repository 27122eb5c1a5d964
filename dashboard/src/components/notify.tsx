import { useEffect, type MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { errorMessage, isPlanRefusal } from '@/lib/errors';
import { PlanRefusal, USAGE_PATH } from './PlanNotice';

const PLAN_TOAST = 'plan-refusal';

/** Toasts are drawn outside the router's tree: a link in one navigates through this, set while the
 *  dashboard's layout is mounted (else the link loads the page). */
let navigateInApp: ((to: string) => void) | null = null;

/** Mounted inside the router (the dashboard's layout): lets a link in a toast navigate in the app. */
export function ToastNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    const go = (to: string) => void navigate(to);
    navigateInApp = go;
    return () => {
      if (navigateInApp === go) navigateInApp = null;
    };
  }, [navigate]);
  return null;
}

function followUsageLink(event: MouseEvent<HTMLAnchorElement>) {
  toast.dismiss(PLAN_TOAST);
  if (!navigateInApp) return;
  event.preventDefault();
  navigateInApp(USAGE_PATH);
}

/**
 * The one way a failed call is told in a toast. A refusal by the company's plan (403 `plan_limit`,
 * `plan_expired`, `plan_feature`) shows the server's message, which names the limit, with the way
 * to Settings → Usage, and stays until it is closed or followed; anything else shows `text`.
 */
export function toastFailure(error: unknown, text: string): void {
  if (isPlanRefusal(error)) {
    toast.error(<PlanRefusal error={error} onFollow={followUsageLink} />, { id: PLAN_TOAST, duration: Infinity });
    return;
  }
  toast.error(text);
}

/** A failed call in a toast: the server's message, else `fallback` (a plan refusal as above). */
export function toastError(error: unknown, fallback: string): void {
  toastFailure(error, errorMessage(error, fallback));
}
