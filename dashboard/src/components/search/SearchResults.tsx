import { FileText, Folder, Tag as TagIcon } from 'lucide-react';
import { formatDate } from '@/lib/format';
import { Badge, StatusBadge } from '../Badge';
import { Spinner } from '../Spinner';
import type { Row } from './searchRows';

const KIND = {
  posts: { icon: <FileText size={16} />, label: 'Post' },
  categories: { icon: <Folder size={16} />, label: 'Category' },
  tags: { icon: <TagIcon size={16} />, label: 'Tag' },
};

interface RowProps {
  row: Row;
  id: string;
  active: boolean;
  onHover: () => void;
  onChoose: () => void;
}

/** One result: its kind, title, status, excerpt, author, date and number of posts. */
function ResultRow({ row, id, active, onHover, onChoose }: RowProps) {
  return (
    <div
      id={id}
      role="option"
      aria-selected={active}
      className={active ? 'search-result active' : 'search-result'}
      onMouseDown={(e) => e.preventDefault()}
      onMouseEnter={onHover}
      onClick={onChoose}
    >
      <span className="search-result-icon" aria-hidden="true">
        {KIND[row.kind].icon}
      </span>
      <span className="grow stack" style={{ gap: 2 }}>
        <span className="row wrap">
          <strong>{row.title}</strong>
          <Badge tone="primary">{KIND[row.kind].label}</Badge>
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
  );
}

interface Props {
  id: string;
  rows: Row[];
  /** The text searched, for the empty message. */
  query: string;
  /** No answer yet (first search), or one is on its way. */
  loading: boolean;
  pending: boolean;
  active: number;
  optionId: (index: number) => string;
  onHover: (index: number) => void;
  onChoose: (row: Row) => void;
}

/** The list of results under the box (a listbox), or its spinner or empty message. */
export function SearchResults({ id, rows, query, loading, pending, active, optionId, onHover, onChoose }: Props) {
  return (
    <div className="search-results card" role="listbox" id={id} aria-label="Search results">
      {loading ? (
        <div className="search-empty">
          <Spinner small label="Searching" />
        </div>
      ) : rows.length === 0 && !pending ? (
        <div className="search-empty">
          <div>No results found for "{query}"</div>
          <div className="small muted">Try adjusting your search terms or filters</div>
        </div>
      ) : (
        rows.map((row, i) => (
          <ResultRow key={row.key} row={row} id={optionId(i)} active={i === active} onHover={() => onHover(i)} onChoose={() => onChoose(row)} />
        ))
      )}
    </div>
  );
}
