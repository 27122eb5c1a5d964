import type { Change } from 'diff';
import type { FieldDiff } from '../../revisionDiff';

function Side({ parts, side }: { parts: Change[]; side: 'before' | 'after' }) {
  return (
    <div className={`diff-side diff-${side}`}>
      {parts.map((part, i) => {
        if (side === 'before' && part.added) return null;
        if (side === 'after' && part.removed) return null;
        if (part.removed) return <del key={i}>{part.value}</del>;
        if (part.added) return <ins key={i}>{part.value}</ins>;
        return <span key={i}>{part.value}</span>;
      })}
    </div>
  );
}

interface Props {
  diffs: FieldDiff[];
  beforeLabel: string;
  afterLabel: string;
}

/** Two versions side by side, field by field: removed words struck out on the left, added words
 * marked on the right (screen readers announce <del>/<ins> through their text labels). */
export function DiffView({ diffs, beforeLabel, afterLabel }: Props) {
  if (!diffs.length) return <p className="muted">No differences in the fields that are compared.</p>;
  return (
    <div className="stack diff-view" data-testid="diff-view">
      <div className="diff-row diff-head" aria-hidden="true">
        <span className="small muted">{beforeLabel}</span>
        <span className="small muted">{afterLabel}</span>
      </div>
      {diffs.map((d) => (
        <section key={d.field} className="diff-field" aria-label={`${d.label}: ${beforeLabel} and ${afterLabel}`}>
          <h3 className="diff-label">{d.label}</h3>
          <div className="diff-row">
            <Side parts={d.parts} side="before" />
            <Side parts={d.parts} side="after" />
          </div>
        </section>
      ))}
    </div>
  );
}
