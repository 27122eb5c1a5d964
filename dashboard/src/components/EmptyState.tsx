import type { ReactNode } from 'react';

/** Nothing to show: a line saying so and an optional way on (`action`). */
export function EmptyState({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <div className="state">
      <div>{children}</div>
      {action}
    </div>
  );
}
