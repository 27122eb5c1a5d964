import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { Search, X } from 'lucide-react';
import { toast } from 'sonner';
import { useSearchQuery } from '@/api/search';
import { useDebouncedValue } from '@/lib/useDebounce';
import { Spinner } from '../Spinner';
import { useDismiss } from '../useDismiss';
import { SearchFilters } from './SearchFilters';
import { SearchResults } from './SearchResults';
import { NO_FILTERS, toRows, VARIANT_TYPES, type Filters, type Row, type SearchVariant } from './searchRows';
import { useComboboxKeys } from './useComboboxKeys';

export const SEARCH_DEBOUNCE_MS = 300;
export const SEARCH_MIN_CHARS = 2;

interface Props {
  variant?: SearchVariant;
  placeholder?: string;
}

/** The search box of the page headers: a combobox over posts, categories and tags (or one of
 * them), searched 300 ms after typing stops, with filters for posts. */
export function SearchBox({ variant = 'all', placeholder = 'Search posts, categories, and tags...' }: Props) {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [resultsOpen, setResultsOpen] = useState(false);
  const closeResults = useCallback(() => setResultsOpen(false), []);
  const boxRef = useDismiss(resultsOpen, closeResults);
  const listId = useId();

  const searchable = VARIANT_TYPES[variant];
  const types = useMemo(() => (filters.type === 'all' ? searchable : [filters.type]), [filters.type, searchable]);
  const postsSearched = types.includes('posts');

  const trimmed = query.trim();
  const debounced = useDebouncedValue(trimmed, SEARCH_DEBOUNCE_MS);
  const { data, isFetching, isError } = useSearchQuery(
    {
      q: debounced,
      types,
      status: postsSearched && filters.status !== 'all' ? filters.status : undefined,
      dateRange: postsSearched && filters.dateRange !== 'all' ? filters.dateRange : undefined,
    },
    { skip: debounced.length < SEARCH_MIN_CHARS },
  );

  useEffect(() => {
    if (isError) toast.error('Search failed. Please try again.');
  }, [isError]);

  const rows = useMemo<Row[]>(() => (data ? toRows(data, types, variant) : []), [data, types, variant]);
  const showResults = resultsOpen && trimmed.length >= SEARCH_MIN_CHARS;
  const pending = isFetching || debounced !== trimmed;

  function choose(row: Row) {
    setResultsOpen(false);
    setQuery('');
    navigate(row.to);
  }

  const keys = useComboboxKeys({
    rows,
    listId,
    shown: showResults,
    open: () => setResultsOpen(true),
    close: closeResults,
    clear: () => setQuery(''),
    choose,
  });

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
          aria-activedescendant={showResults && keys.active >= 0 ? keys.optionId(keys.active) : undefined}
          onKeyDown={keys.onKeyDown}
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
        {variant === 'all' || variant === 'posts' ? (
          <SearchFilters filters={filters} onChange={setFilters} searchable={searchable} posts={postsSearched} />
        ) : null}
      </div>
      {showResults ? (
        <SearchResults
          id={listId}
          rows={rows}
          query={trimmed}
          loading={!data && pending}
          pending={pending}
          active={keys.active}
          optionId={keys.optionId}
          onHover={keys.setActive}
          onChoose={choose}
        />
      ) : null}
    </div>
  );
}
