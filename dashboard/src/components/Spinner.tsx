/** A spinning circle (role=status) named by `label`; `small` inside buttons. */
export function Spinner({ small, label = 'Loading' }: { small?: boolean; label?: string }) {
  return <span className={small ? 'spinner sm' : 'spinner'} role="status" aria-label={label} />;
}
