/** A labelled progress bar with its words below, told to screen readers politely. */
export function ProgressBar({ label, done, total, text }: { label: string; done: number; total: number; text: string }) {
  const percent = total ? Math.min(100, Math.round((done / total) * 100)) : 0;
  return (
    <div className="stack" style={{ gap: 6 }}>
      <div
        className="progress"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total || 100}
        aria-valuenow={done}
        aria-valuetext={text}
      >
        <span style={{ width: `${percent}%` }} />
      </div>
      <div className="small muted" aria-live="polite">
        {text}
      </div>
    </div>
  );
}
