import { Link } from 'react-router';
import { Download } from 'lucide-react';
import { importReport, useImportReportCsvMutation, type ImportJob } from '@/api/portability';
import { toastError } from '@/components/notify';
import { formatNumber } from '@/lib/format';
import { CountsTable } from './CountsTable';
import { leftOut } from './labels';
import { MissingImages } from './MissingImages';

/** A completed import: what came over, the authors waiting for an invitation, what did not come
 *  over as it was, the report as CSV, and the images it could not bring. */
export function ImportReport({ job }: { job: ImportJob }) {
  const report = importReport(job);
  const [reportCsv] = useImportReportCsvMutation();
  const items = report.items ?? [];
  const waiting = items.filter((item) => item.kind === 'author' && item.outcome === 'waiting');
  const left = report.notBroughtOver ?? [];

  async function onCsv() {
    const result = await reportCsv(job.id);
    if ('error' in result) {
      toastError(result.error, 'Could not download the report');
      return;
    }
    const url = URL.createObjectURL(new Blob([result.data.csv], { type: 'text/csv' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = result.data.fileName;
    link.click();
    URL.revokeObjectURL(url);
  }

  return (
    <>
      <h3>Report</h3>
      <CountsTable counts={report.counts ?? {}} caption="Imported" />
      <div className="row" style={{ gap: 8, flexWrap: 'wrap' }}>
        <button type="button" className="btn" onClick={() => void onCsv()}>
          <Download size={16} aria-hidden="true" /> Download the report (CSV)
        </button>
        <Link className="btn" to="/dashboard/posts">
          See the posts
        </Link>
      </div>
      {waiting.length ? (
        <p className="notice notice-info">
          {waiting.length === 1 ? '1 author account waits' : `${formatNumber(waiting.length)} author accounts wait`}, inactive
          and not emailed, until you invite {waiting.length === 1 ? 'its owner' : 'their owners'}:{' '}
          <Link to="/dashboard/users" style={{ color: 'inherit', fontWeight: 600, textDecoration: 'underline' }}>
            invite them from Users
          </Link>
          .
        </p>
      ) : null}
      {left.length ? (
        <p className="small">
          Not brought over: {left.map((l) => leftOut(l.kind, l.count)).join(', ')} (the report says why).
        </p>
      ) : null}
      {items.length ? (
        <details>
          <summary>{items.length} items not brought over as they were</summary>
          <ul className="small">
            {items.slice(0, 200).map((item, i) => (
              <li key={i} className="break">
                <strong>{item.kind}</strong> {item.item}: {item.outcome} ({item.reason})
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <MissingImages jobId={job.id} />
    </>
  );
}
