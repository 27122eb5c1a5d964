import { useEffect, useState, type ReactNode } from 'react';
import { LoadingState } from '@/components/LoadingState';
import { errorMessage } from '@/lib/errors';
import { AuthCard } from './AuthCard';

/** What checking an emailed link gave: the server's answer, or why the link cannot be used. */
export interface LinkCheck<T> {
  value?: T;
  error?: string;
}

/**
 * Check an emailed link (password reset, invitation, verification) once when its page opens.
 * `check` is null for a link without its token; a refusal shows the server's message, else
 * `invalid`. Memoize `check` (useCallback): a new one checks again.
 */
export function useLinkCheck<T>(check: (() => Promise<T>) | null, invalid: string): LinkCheck<T> {
  const [state, setState] = useState<LinkCheck<T>>({});
  useEffect(() => {
    if (!check) {
      setState({ error: invalid });
      return;
    }
    check()
      .then((value) => setState({ value }))
      .catch((err: unknown) => setState({ error: errorMessage(err, invalid) }));
  }, [check, invalid]);
  return state;
}

interface Props<T> {
  title: string;
  link: LinkCheck<T>;
  /** Beside the spinner while the link is checked. */
  checking: string;
  /** Where to go from a link that cannot be used (links or buttons). */
  ways: ReactNode;
  subtitle?: (value: T) => ReactNode;
  /** The page for a good link (its form). */
  children: (value: T) => ReactNode;
}

/** The page an emailed link opens: checking it, then its form, or why it cannot be used. */
export function EmailedLinkPage<T>({ title, link, checking, ways, subtitle, children }: Props<T>) {
  if (link.error) {
    return (
      <AuthCard title={title}>
        <div className="stack">
          <p role="alert">{link.error}</p>
          {ways}
        </div>
      </AuthCard>
    );
  }
  if (link.value === undefined) {
    return (
      <AuthCard title={title}>
        <LoadingState label={checking} />
      </AuthCard>
    );
  }
  return (
    <AuthCard title={title} subtitle={subtitle?.(link.value)}>
      {children(link.value)}
    </AuthCard>
  );
}
