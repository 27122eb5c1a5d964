import { useCallback, useEffect, useId, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { Filter } from 'lucide-react';
import type { SearchType } from '@/api/search';
import { SelectField } from '../form';
import { useDismiss } from '../useDismiss';
import { NO_FILTERS, TYPE_LABELS, type Filters } from './searchRows';

const STATUS_OPTIONS = Object.entries({ all: 'All Status', published: 'Published', draft: 'Draft', archived: 'Archived' }).map(
  ([value, label]) => ({ value, label }),
);
const DATE_OPTIONS = Object.entries({ all: 'All Time', week: 'Last Week', month: 'Last Month', year: 'Last Year' }).map(
  ([value, label]) => ({ value, label }),
);

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
  const id = useId();

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
            <SelectField label="Content Type" id={`${id}-type`} options={typeOptions} value={filters.type} onChange={(e) => set('type', e.target.value as Filters['type'])} />
          ) : null}
          {posts ? (
            <>
              <SelectField
                label="Post Status"
                id={`${id}-status`}
                options={STATUS_OPTIONS}
                value={filters.status}
                onChange={(e) => set('status', e.target.value as Filters['status'])}
              />
              <SelectField
                label="Date Range"
                id={`${id}-date`}
                options={DATE_OPTIONS}
                value={filters.dateRange}
                onChange={(e) => set('dateRange', e.target.value as Filters['dateRange'])}
              />
            </>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
