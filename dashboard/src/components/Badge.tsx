import type { ReactNode } from 'react';
import { capitalize } from '@/lib/format';

/** A small coloured label; `tone` picks the colour (success, danger, a post's status, ...). */
export function Badge({ tone, children }: { tone?: string; children: ReactNode }) {
  return <span className={tone ? `badge badge-${tone}` : 'badge'}>{children}</span>;
}

/** A status as a badge of its own colour ("draft" -> Draft); nothing without one. */
export function StatusBadge({ status }: { status?: string | null }) {
  if (!status) return null;
  return <Badge tone={status}>{capitalize(status)}</Badge>;
}
