import type { ReactNode } from 'react';
import { Pagination } from './Pagination';

export interface Column<T> {
  /** The heading; also the cell's label in the card view of narrow lists, unless `label`. */
  header: ReactNode;
  label?: string;
  /** The row's main cell: first, the card's title on narrow lists (no label). */
  primary?: boolean;
  /** The row's actions: the card's top right corner on narrow lists (no label). */
  actions?: boolean;
  width?: number;
  className?: string;
  cell: (row: T) => ReactNode;
}

interface Props<T> {
  rows: T[];
  columns: Column<T>[];
  rowKey: (row: T) => string;
  /** Dimmed while another page of the list loads. */
  dimmed?: boolean;
  /** The table's accessible name, when the page has several lists. */
  label?: string;
  /** Pages under the table (none when there is one page). */
  pages?: { page: number; totalPages: number; onChange: (page: number) => void };
}

function cellClass<T>(column: Column<T>): string | undefined {
  const kind = column.primary ? 'cell-primary' : column.actions ? 'cell-actions' : '';
  return [kind, column.className].filter(Boolean).join(' ') || undefined;
}

function cellLabel<T>(column: Column<T>): string | undefined {
  if (column.primary || column.actions) return undefined;
  return column.label ?? (typeof column.header === 'string' ? column.header : undefined);
}

/** A list as a table that becomes labelled cards below 600 px (the `stack-table` styles). */
export function DataTable<T>({ rows, columns, rowKey, dimmed, label, pages }: Props<T>) {
  return (
    <>
      <div className="table-wrap" style={dimmed === undefined ? undefined : { opacity: dimmed ? 0.6 : 1 }}>
        <table className="table stack-table" aria-label={label}>
          <thead>
            <tr>
              {columns.map((column, i) => (
                <th key={i} style={column.width ? { width: column.width } : undefined}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((column, i) => (
                  <td key={i} className={cellClass(column)} data-label={cellLabel(column)}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pages ? <Pagination {...pages} /> : null}
    </>
  );
}
