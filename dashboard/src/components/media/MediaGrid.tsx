import { useEffect, useRef, useState } from 'react';
import { ChevronLeft, ChevronRight, ImageIcon, Search } from 'lucide-react';
import { mediaUrl, useGetMediaQuery, type Media } from '@/api/media';
import { useDebouncedValue } from '@/lib/useDebounce';
import { QueryState } from '../QueryState';

export const MEDIA_PAGE_SIZE = 12;
/** While a tile has no thumbnail rendition yet, the list is asked again this often. */
export const RENDITION_POLL_MS = 2000;
export const RENDITION_POLL_LIMIT_MS = 60_000;
const STATES = { loading: 'Loading media...', error: 'Failed to load media. Please try again.', empty: 'No media found.' };

/** The smallest image of a media item that exists: thumbnail, small, then the original; a
 * placeholder while none has loaded, never a blank tile. */
function MediaThumb({ media }: { media: Media }) {
  const sources = [media.renditions?.thumbnail, media.renditions?.small, mediaUrl(media)].filter(Boolean) as string[];
  const [index, setIndex] = useState(0);
  const [loaded, setLoaded] = useState(false);
  const key = sources.join('|');
  const [seen, setSeen] = useState(key);
  if (seen !== key) {
    // A rendition appeared: start again from the smallest.
    setSeen(key);
    setIndex(0);
    setLoaded(false);
  }
  const src = sources[index];
  return (
    <>
      {!loaded ? (
        <span className="media-placeholder" aria-hidden="true">
          <ImageIcon size={28} />
        </span>
      ) : null}
      {src ? (
        <img
          key={src}
          src={src}
          alt={media.altText || media.fileName}
          loading="lazy"
          style={loaded ? undefined : { opacity: 0 }}
          onLoad={() => setLoaded(true)}
          onError={() => {
            setLoaded(false);
            setIndex((i) => i + 1);
          }}
        />
      ) : null}
    </>
  );
}

interface Props {
  selectedId?: string | null;
  onSelect: (media: Media) => void;
}

/** Searchable, paged grid of the media library (12 per page). */
export function MediaGrid({ selectedId, onSelect }: Props) {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const term = useDebouncedValue(search.trim(), 300);
  const [waiting, setWaiting] = useState(false);
  const media = useGetMediaQuery(
    { page, limit: MEDIA_PAGE_SIZE, search: term || undefined },
    // New uploads get their thumbnail from a worker a moment later: look again until they have it.
    { pollingInterval: waiting ? RENDITION_POLL_MS : 0 },
  );
  const missingSince = useRef<number | null>(null);
  const { data } = media;
  const missing = !!data?.media.some((m) => m.fileType?.startsWith('image/') && !m.renditions?.thumbnail);
  useEffect(() => {
    if (!missing) missingSince.current = null;
    else missingSince.current ??= Date.now();
    // Give up after a while (a rendition that failed is not coming): the tile keeps its fallback.
    setWaiting(missing && Date.now() - (missingSince.current ?? 0) < RENDITION_POLL_LIMIT_MS);
  }, [missing, data]);

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
      <QueryState query={media} {...STATES} isEmpty={(page) => page.media.length === 0}>
        {(data) => (
          <>
            <div className="media-grid" style={{ opacity: media.isFetching ? 0.6 : 1 }}>
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
                  <MediaThumb media={m} />
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
      </QueryState>
    </div>
  );
}
