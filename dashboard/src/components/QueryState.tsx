import type { ReactNode } from 'react';
import { EmptyState } from './EmptyState';
import { ErrorState } from './ErrorState';
import { LoadingState } from './LoadingState';
import { Spinner } from './Spinner';

/** What QueryState reads of an RTK Query result (or of several, combined by the screen). */
export interface QueryResult<T> {
  data?: T;
  isLoading: boolean;
  isError: boolean;
  refetch?: () => unknown;
}

interface Props<T> {
  query: QueryResult<T>;
  /** Beside the spinner (role=status) while the data is not there yet. */
  loading?: string;
  /** The failure's title (role=alert), followed by Try Again: the query again, or `retry`. */
  error?: string;
  /** A line under the error's title. */
  errorDetail?: string;
  /** What Try Again does; false: no Try Again. */
  retry?: false | (() => void);
  /** Other ways out under the error (a link back, Refresh Page). */
  errorActions?: ReactNode;
  /** Shown instead of the error block (a screen's own "not found"). */
  failed?: ReactNode;
  /** Shown when the data is null or `isEmpty` says it has nothing to show, with `emptyAction`. */
  empty?: ReactNode;
  isEmpty?: (data: NonNullable<T>) => boolean;
  emptyAction?: ReactNode;
  /** The error and empty states in a card of their own (screens whose content is cards). */
  boxed?: boolean;
  /** Inside a card with other content: a bare spinner and a muted line for empty. */
  compact?: boolean;
  /** The screen, once the data is there. */
  children: (data: NonNullable<T>) => ReactNode;
}

/**
 * The states of a screen or list that shows server data, in one place: loading (a spinner and
 * `loading`), failed (`error` with Try Again), empty (`empty` and its action), else the content.
 */
export function QueryState<T>({
  query,
  loading = 'Loading...',
  error = 'Something went wrong. Please try again.',
  errorDetail,
  retry,
  errorActions,
  failed,
  empty,
  isEmpty,
  emptyAction,
  boxed = false,
  compact = false,
  children,
}: Props<T>) {
  const { data, isLoading, isError, refetch } = query;
  const box = (state: ReactNode) => (boxed ? <section className="card">{state}</section> : state);
  if (isLoading || (!isError && data === undefined)) {
    return compact ? <Spinner label={loading} /> : <LoadingState label={loading} />;
  }
  if (isError) {
    if (failed) return <>{failed}</>;
    const onRetry = retry === false ? undefined : (retry ?? (refetch ? () => void refetch() : undefined));
    return box(
      <ErrorState title={error} message={errorDetail} onRetry={onRetry}>
        {errorActions}
      </ErrorState>,
    );
  }
  if (data === null || data === undefined || isEmpty?.(data)) {
    if (compact) return <p className="muted" style={{ margin: 0 }}>{empty}</p>;
    return box(<EmptyState action={emptyAction}>{empty}</EmptyState>);
  }
  return <>{children(data)}</>;
}
