export type PageItem = number | 'ellipsis-start' | 'ellipsis-end';

/**
 * Numbered pagination window: first and last page, the current page plus and minus one,
 * ellipses between gaps; up to 4 numbers near the start (and, symmetrically, the end).
 */
export function pageWindow(current: number, totalPages: number): PageItem[] {
  if (totalPages <= 0) return [];
  const page = Math.min(Math.max(1, current), totalPages);
  if (totalPages <= 5) return Array.from({ length: totalPages }, (_, i) => i + 1);
  if (page <= 3) return [1, 2, 3, 4, 'ellipsis-end', totalPages];
  if (page >= totalPages - 2) {
    return [1, 'ellipsis-start', totalPages - 3, totalPages - 2, totalPages - 1, totalPages];
  }
  return [1, 'ellipsis-start', page - 1, page, page + 1, 'ellipsis-end', totalPages];
}
