import { Spinner } from './Spinner';

/** A screen or list still loading: a spinner and `label`. */
export function LoadingState({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="state">
      <Spinner />
      <span>{label}</span>
    </div>
  );
}
