import type { HTMLAttributes, ReactNode } from 'react';

interface CardProps extends Omit<HTMLAttributes<HTMLElement>, 'title'> {
  title: ReactNode;
  /** Beside the title: a link or a short note. */
  aside?: ReactNode;
  /** The title's id (for `aria-labelledby`). */
  titleId?: string;
  /** The body: a stack of blocks (default), rows of label and value, or left as it is. */
  body?: 'stack' | 'rows' | 'plain';
}

const ROWS = { paddingTop: 4, paddingBottom: 4 };

/** A titled card: the header with its title (and what goes beside it), then the body. */
export function Card({ title, aside, titleId, body = 'stack', className, children, ...section }: CardProps) {
  return (
    <section className={className ? `card ${className}` : 'card'} {...section}>
      <div className="card-header">
        <h2 className="card-title" id={titleId}>
          {title}
        </h2>
        {aside}
      </div>
      <div className={body === 'stack' ? 'card-body stack' : 'card-body'} style={body === 'rows' ? ROWS : undefined}>
        {children}
      </div>
    </section>
  );
}

/** One row of a card's list: a muted label, and the value on the right. */
export function CardRow({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="list-row">
      <span className="muted">{label}</span>
      <span style={{ textAlign: 'right', overflowWrap: 'anywhere' }}>{children}</span>
    </div>
  );
}
