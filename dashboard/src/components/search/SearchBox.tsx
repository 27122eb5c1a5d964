import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { FileText, Filter, Folder, Search, Tag as TagIcon, X } from 'lucide-react';
import { toast } from 'sonner';
import { useSearchQuery, type SearchType } from '@/api/search';
import { useDebouncedValue } from '@/lib/useDebounce';
import { formatDate } from '@/lib/format';
import { Badge, Spinner, StatusBadge, useDismiss } from '../ui';

export const SEARCH_DEBOUNCE_MS = 300;
export const SEARCH_MIN_CHARS = 2;

export type SearchVariant = 'all' | 'posts' | 'categories' | 'tags';

const VARIANT_TYPES: Record<SearchVariant, SearchType[]> = {
  all: ['posts', 'categories', 'tags'],
  posts: ['posts'],
  categories: ['categories'],
  tags: ['tags'],
};

const TYPE_LABELS: Record<SearchType, string> = { posts: 'Posts', categories: 'Categories', tags: 'Tags' };

interface Filters {
  type: 'all' | SearchType;
  status: 'all' | 'published' | 'draft' | 'archived';
  dateRange: 'all' | 'week' | 'month' | 'year';
}

const NO_FILTERS: Filters = { type: 'all', status: 'all', dateRange: 'all' };

interface Row {
  key: string;
  kind: SearchType;
  title: string;
  excerpt?: string | null;
  status?: string | null;
  author?: string;
  date?: string | null;
  postCount?: number;
  to: string;
}

interface Props {
  variant?: SearchVariant;
  placeholder?: string;
}

export function SearchBox({ variant = 'all', placeholder = 'Search posts, categories, and tags...' }: Props) {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [resultsOpen, setResultsOpen] = useState(false);
  const closeFilters = useCallback(() => setFiltersOpen(false), []);
  const closeResults = useCallback(() => setResultsOpen(false), []);
  const filtersRef = useDismiss(filtersOpen, closeFilters);
  const boxRef = useDismiss(resultsOpen, closeResults);
  const filterButton = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(-1);
  const listId = useId();
  const optionId = (i: number) => `${listId}-option-${i}`;

  // The filter popover takes focus when it opens (its first control).
  useEffect(() => {
    if (filtersOpen) popover.current?.querySelector<HTMLElement>('select, button')?.focus();
  }, [filtersOpen]);

  const searchable = VARIANT_TYPES[variant];
  const types = useMemo(() => (filters.type === 'all' ? searchable : [filters.type]), [filters.type, searchable]);
  const postsSearched = types.includes('posts');
  const hasFilters = variant === 'all' || variant === 'posts';

  const trimmed = query.trim();
  const debounced = useDebouncedValue(trimmed, SEARCH_DEBOUNCE_MS);
  const ready = debounced.length >= SEARCH_MIN_CHARS;
  const { data, isFetching, isError } = useSearchQuery(
    {
      q: debounced,
      types,
      status: postsSearched && filters.status !== 'all' ? filters.status : undefined,
      dateRange: postsSearched && filters.dateRange !== 'all' ? filters.dateRange : undefined,
    },
    { skip: !ready },
  );

  useEffect(() => {
    if (isError) toast.error('Search failed. Please try again.');
  }, [isError]);

  const rows = useMemo<Row[]>(() => {
    if (!data) return [];
    const out: Row[] = [];
    if (types.includes('posts')) {
      for (const p of data.posts) {
        out.push({
          key: `post-${p.id}`,
          kind: 'posts',
          title: p.title,
          excerpt: p.excerpt,
          status: p.status,
          author: p.author?.username,
          date: p.publishedAt || p.createdAt,
          to: variant === 'posts' ? `/dashboard/posts/edit/${p.id}` : `/dashboard/posts/${p.slug}`,
        });
      }
    }
    const terms: ['categories' | 'tags', string][] = [
      ['categories', '/dashboard/categories/edit/'],
      ['tags', '/dashboard/tags/edit/'],
    ];
    for (const [kind, base] of terms) {
      if (!types.includes(kind)) continue;
      for (const t of data[kind]) {
        out.push({
          key: `${kind}-${t.id}`,
          kind,
          title: t.name,
          excerpt: 'description' in t ? t.description : undefined,
          postCount: t.postCount,
          to: `${base}${t.id}`,
        });
      }
    }
    return out;
  }, [data, types, variant]);

  const showResults = resultsOpen && trimmed.length >= SEARCH_MIN_CHARS;
  const pending = isFetching || debounced !== trimmed;

  // A new list of results starts with nothing highlighted.
  useEffect(() => setActive(-1), [rows]);
  useEffect(() => {
    if (active >= 0) document.getElementById(optionId(active))?.scrollIntoView?.({ block: 'nearest' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active]);

  /** Combobox keys: arrows move through the results, Enter opens one, Escape closes the list
   * (a second Escape clears the box). Focus stays in the box. */
  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setResultsOpen(true);
      if (rows.length === 0) return;
      if (e.key === 'ArrowDown') setActive((a) => (a + 1) % rows.length);
      else setActive((a) => (a <= 0 ? rows.length - 1 : a - 1));
    } else if (e.key === 'Enter') {
      if (showResults && active >= 0 && rows[active]) {
        e.preventDefault();
        choose(rows[active]);
      }
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      if (showResults) setResultsOpen(false);
      else setQuery('');
    }
  }

  function choose(row: Row) {
    setResultsOpen(false);
    setQuery('');
    navigate(row.to);
  }

  const typeOptions: { value: Filters['type']; label: string }[] = [
    { value: 'all', label: 'All Types' },
    ...searchable.map((t) => ({ value: t, label: TYPE_LABELS[t] })),
  ];

  return (
    <div className="search" ref={boxRef}>
      <div className="search-input-wrap">
        <Search size={16} className="muted" aria-hidden="true" />
        <input
          type="search"
          role="combobox"
          aria-label="Search"
          aria-expanded={showResults}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={showResults && active >= 0 ? optionId(active) : undefined}
          onKeyDown={onKeyDown}
          placeholder={placeholder}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setResultsOpen(true);
          }}
          onFocus={() => setResultsOpen(true)}
        />
        {pending && trimmed.length >= SEARCH_MIN_CHARS ? <Spinner small label="Searching" /> : null}
        {query ? (
          <button type="button" className="btn btn-ghost btn-icon" aria-label="Clear search" onClick={() => setQuery('')}>
            <X size={14} />
          </button>
        ) : null}
        {hasFilters ? (
          <div className="relative" ref={filtersRef}>
            <button
              ref={filterButton}
              type="button"
              className="btn btn-ghost btn-icon"
              aria-label="Search filters"
              aria-haspopup="dialog"
              aria-expanded={filtersOpen}
              onClick={() => setFiltersOpen((o) => !o)}
            >
              <Filter size={14} />
            </button>
            {filtersOpen ? (
              <div
                ref={popover}
                className="popover card stack"
                role="dialog"
                aria-label="Search Filters"
                onKeyDown={(e) => {
                  if (e.key === 'Escape') {
                    e.stopPropagation();
                    setFiltersOpen(false);
                    filterButton.current?.focus();
                  }
                }}
              >
                <div className="row-between">
                  <strong>Search Filters</strong>
                  <button type="button" className="btn btn-ghost btn-sm" onClick={() => setFilters(NO_FILTERS)}>
                    Clear All
                  </button>
                </div>
                {typeOptions.length > 2 ? (
                  <label className="field">
                    <span className="label">Content Type</span>
                    <select
                      className="select"
                      value={filters.type}
                      onChange={(e) => setFilters((f) => ({ ...f, type: e.target.value as Filters['type'] }))}
                    >
                      {typeOptions.map((o) => (
                        <option key={o.value} value={o.value}>
                          {o.label}
                        </option>
                      ))}
                    </select>
                  </label>
                ) : null}
                {postsSearched ? (
                  <>
                    <label className="field">
                      <span className="label">Post Status</span>
                      <select
                        className="select"
                        value={filters.status}
                        onChange={(e) => setFilters((f) => ({ ...f, status: e.target.value as Filters['status'] }))}
                      >
                        <option value="all">All Status</option>
                        <option value="published">Published</option>
                        <option value="draft">Draft</option>
                        <option value="archived">Archived</option>
                      </select>
                    </label>
                    <label className="field">
                      <span className="label">Date Range</span>
                      <select
                        className="select"
                        value={filters.dateRange}
                        onChange={(e) =>
                          setFilters((f) => ({ ...f, dateRange: e.target.value as Filters['dateRange'] }))
                        }
                      >
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
        ) : null}
      </div>
      {showResults ? (
        <div className="search-results card" role="listbox" id={listId} aria-label="Search results">
          {!data && pending ? (
            <div className="search-empty">
              <Spinner small label="Searching" />
            </div>
          ) : rows.length === 0 && !pending ? (
            <div className="search-empty">
              <div>No results found for "{trimmed}"</div>
              <div className="small muted">Try adjusting your search terms or filters</div>
            </div>
          ) : (
            rows.map((row, i) => (
              <div
                key={row.key}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                className={i === active ? 'search-result active' : 'search-result'}
                onMouseDown={(e) => e.preventDefault()}
                onMouseEnter={() => setActive(i)}
                onClick={() => choose(row)}
              >
                <span className="search-result-icon" aria-hidden="true">
                  {row.kind === 'posts' ? <FileText size={16} /> : row.kind === 'categories' ? <Folder size={16} /> : <TagIcon size={16} />}
                </span>
                <span className="grow stack" style={{ gap: 2 }}>
                  <span className="row wrap">
                    <strong>{row.title}</strong>
                    <Badge tone="primary">{row.kind === 'posts' ? 'Post' : row.kind === 'categories' ? 'Category' : 'Tag'}</Badge>
                    <StatusBadge status={row.status} />
                  </span>
                  {row.excerpt ? <span className="small muted line-clamp-2">{row.excerpt}</span> : null}
                  <span className="small muted row wrap">
                    {row.author ? <span>By {row.author}</span> : null}
                    {row.date ? <span>{formatDate(row.date)}</span> : null}
                    {row.postCount !== undefined ? (
                      <span>
                        {row.postCount} {row.postCount === 1 ? 'post' : 'posts'}
                      </span>
                    ) : null}
                  </span>
                </span>
              </div>
            ))
          )}
        </div>
      ) : null}
    </div>
  );
}
