import type { ImportCounts } from '@/api/portability';

/** Counts per kind and outcome ("58 create, 2 update"), one row per kind. */
export function CountsTable({ counts, caption }: { counts: ImportCounts; caption: string }) {
  // A kind with no outcome (the dry run names pages it counted none of) has no row.
  const kinds = Object.keys(counts).filter((kind) => Object.keys(counts[kind]).length > 0);
  if (!kinds.length) return null;
  return (
    <table className="table" aria-label={caption}>
      <caption className="small muted" style={{ textAlign: 'left' }}>
        {caption}
      </caption>
      <thead>
        <tr>
          <th scope="col">Kind</th>
          <th scope="col">Outcome</th>
        </tr>
      </thead>
      <tbody>
        {kinds.map((kind) => (
          <tr key={kind}>
            <th scope="row">{kind}</th>
            <td>
              {Object.entries(counts[kind])
                .map(([outcome, n]) => `${n} ${outcome}`)
                .join(', ')}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
