import { useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { Filter } from 'lucide-react';
import type { SearchType } from '@/api/search';
import { useDismiss } from '../ui';
import { NO_FILTERS, TYPE_LABELS, type Filters } from './searchRows';

interface Props {
  filters: Filters;
  onChange: Dispatch<SetStateAction<Filters>>;
  /** The types this box searches (a type filter only when there are several). */
  searchable: SearchType[];
  /** Whether posts are searched (their status and date filters). */
  posts: boolean;
}

/** The filter button and its popover: content type, post status, date range, Clear All. The
 * popover takes focus when it opens; Escape closes it and gives focus back to the button. */
export function SearchFilters({ filters, onChange, searchable, posts }: Props) {
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  const ref = useDismiss(open, close);
  const button = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (open) popover.current?.querySelector<HTMLElement>('select, button')?.focus();
  }, [open]);

  const set = <K extends keyof Filters>(key: K, value: Filters[K]) => onChange((f) => ({ ...f, [key]: value }));
  const typeOptions: { value: Filters['type']; label: string }[] = [
    { value: 'all', label: 'All Types' },
    ...searchable.map((t) => ({ value: t, label: TYPE_LABELS[t] })),
  ];

  return (
    <div className="relative" ref={ref}>
      <button
        ref={button}
        type="button"
        className="btn btn-ghost btn-icon"
        aria-label="Search filters"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        <Filter size={14} />
      </button>
      {open ? (
        <div
          ref={popover}
          className="popover card stack"
          role="dialog"
          aria-label="Search Filters"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              setOpen(false);
              button.current?.focus();
            }
          }}
        >
          <div className="row-between">
            <strong>Search Filters</strong>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => onChange(NO_FILTERS)}>
              Clear All
            </button>
          </div>
          {typeOptions.length > 2 ? (
            <label className="field">
              <span className="label">Content Type</span>
              <select className="select" value={filters.type} onChange={(e) => set('type', e.target.value as Filters['type'])}>
                {typeOptions.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          {posts ? (
            <>
              <label className="field">
                <span className="label">Post Status</span>
                <select className="select" value={filters.status} onChange={(e) => set('status', e.target.value as Filters['status'])}>
                  <option value="all">All Status</option>
                  <option value="published">Published</option>
                  <option value="draft">Draft</option>
                  <option value="archived">Archived</option>
                </select>
              </label>
              <label className="field">
                <span className="label">Date Range</span>
                <select className="select" value={filters.dateRange} onChange={(e) => set('dateRange', e.target.value as Filters['dateRange'])}>
                  <option value="all">All Time</option>
                  <option value="week">Last Week</option>
                  <option value="month">Last Month</option>
                  <option value="year">Last Year</option>
                </select>
              </label>
            </>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
