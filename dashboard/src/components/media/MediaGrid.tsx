import { useState } from 'react';
import { ChevronLeft, ChevronRight, Search } from 'lucide-react';
import { EmptyState, ErrorState, LoadingState } from '../ui';
import { useDebouncedValue } from '@/lib/useDebounce';
import { useGetMediaQuery } from '@/lib/mediaApi';
import { mediaThumbnail, type Media } from '@/lib/types';

export const MEDIA_PAGE_SIZE = 12;

interface Props {
  selectedId?: string | null;
  onSelect: (media: Media) => void;
}

/** Searchable, paged grid of the media library (12 per page). */
export function MediaGrid({ selectedId, onSelect }: Props) {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const term = useDebouncedValue(search.trim(), 300);
  const { data, isLoading, isError, refetch, isFetching } = useGetMediaQuery({
    page,
    limit: MEDIA_PAGE_SIZE,
    search: term || undefined,
  });

  return (
    <div className="stack">
      <div className="search-input-wrap">
        <Search size={16} className="muted" aria-hidden="true" />
        <input
          type="search"
          aria-label="Search media"
          placeholder="Search media..."
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
        />
      </div>
      {isLoading ? (
        <LoadingState label="Loading media..." />
      ) : isError ? (
        <ErrorState title="Failed to load media. Please try again." onRetry={() => refetch()} />
      ) : !data || data.media.length === 0 ? (
        <EmptyState>No media found.</EmptyState>
      ) : (
        <>
          <div className="media-grid" style={{ opacity: isFetching ? 0.6 : 1 }}>
            {data.media.map((m) => (
              <button
                key={m.id}
                type="button"
                className={m.id === selectedId ? 'media-tile selected' : 'media-tile'}
                aria-pressed={m.id === selectedId}
                aria-label={m.fileName}
                title={m.fileName}
                onClick={() => onSelect(m)}
              >
                {mediaThumbnail(m) ? <img src={mediaThumbnail(m)} alt={m.altText || m.fileName} loading="lazy" /> : null}
                <span className="media-name">{m.fileName}</span>
              </button>
            ))}
          </div>
          <nav className="pager" aria-label="Media pages">
            <button type="button" className="btn btn-secondary btn-sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
              <ChevronLeft size={14} /> Previous
            </button>
            <span className="small muted pager-status" aria-live="polite">
              Page {data.page} of {data.totalPages}
            </span>
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              disabled={page >= data.totalPages}
              onClick={() => setPage((p) => p + 1)}
            >
              Next <ChevronRight size={14} />
            </button>
          </nav>
        </>
      )}
    </div>
  );
}
