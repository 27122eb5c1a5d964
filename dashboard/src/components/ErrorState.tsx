import type { ReactNode } from 'react';

/** A failure (role=alert): its title, a detail line, Try Again, and other ways out (`children`). */
export function ErrorState({ title, message, onRetry, children }: { title: string; message?: string; onRetry?: () => void; children?: ReactNode }) {
  return (
    <div className="state" role="alert">
      <strong className="text-danger">{title}</strong>
      {message ? <span>{message}</span> : null}
      {onRetry ? (
        <button type="button" className="btn btn-secondary" onClick={onRetry}>
          Try Again
        </button>
      ) : null}
      {children}
    </div>
  );
}
