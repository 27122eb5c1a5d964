import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Download, Upload } from 'lucide-react';
import { useCapabilities } from '@/api/session';
import {
  invalidateAfterImport,
  useGetExportQuery,
  useGetImportQuery,
  useRequestExportMutation,
  useImportReportCsvMutation,
  useStartImportMutation,
  useUploadImportMutation,
  type ImportJob,
} from '@/api/portability';
import { EmptyState } from '@/components/EmptyState';
import { LoadingState } from '@/components/LoadingState';
import { PageHeader } from '@/components/PageHeader';
import { PlanNotice } from '@/components/PlanNotice';
import { useAppDispatch } from '@/lib/hooks';
import { errorMessage, isPlanRefusal } from '@/lib/errors';

type Counts = Record<string, Record<string, number>>;
interface Item {
  kind: string;
  item: string;
  outcome: string;
  reason: string;
}
const RUNNING = new Set(['queued', 'running']);

function CountsTable({ counts, caption }: { counts: Counts; caption: string }) {
  const kinds = Object.keys(counts);
  if (!kinds.length) return null;
  return (
    <table className="table" aria-label={caption}>
      <caption className="small muted" style={{ textAlign: 'left' }}>{caption}</caption>
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

function Progress({ job }: { job: ImportJob }) {
  const percent = job.total ? Math.min(100, Math.round((job.done / job.total) * 100)) : 0;
  return (
    <div className="stack" style={{ gap: 6 }}>
      <div
        className="progress"
        role="progressbar"
        aria-label="Import progress"
        aria-valuemin={0}
        aria-valuemax={job.total || 100}
        aria-valuenow={job.done}
        aria-valuetext={`${job.phase || 'waiting'}: ${job.done} of ${job.total}`}
      >
        <span style={{ width: `${percent}%` }} />
      </div>
      <div className="small muted" aria-live="polite">
        {job.phase || 'Waiting for a worker'}: {job.done} of {job.total}
      </div>
    </div>
  );
}

/** Export: one click; the zip is built in the background, then a signed link (also emailed). */
function ExportPanel() {
  const [request, requesting] = useRequestExportMutation();
  const [exportId, setExportId] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(false);
  const found = useGetExportQuery(exportId ?? '', { skip: !exportId, pollingInterval: waiting ? 1000 : 0 });
  const job = found.data?.export;
  useEffect(() => {
    if (job) setWaiting(job.status === 'queued');
  }, [job]);

  async function onExport() {
    const result = await request();
    if ('data' in result && result.data) {
      setExportId(result.data.export.id);
      setWaiting(true);
    }
  }

  return (
    <section className="card card-body stack" aria-label="Export">
      <h2>Export</h2>
      <p className="small">
        Every post, category, tag, user (without passwords) and image, in one zip that Ghost and this CMS can import. We
        email you a download link when it is ready.
      </p>
      <div>
        <button type="button" className="btn" onClick={() => void onExport()} disabled={requesting.isLoading || waiting}>
          <Download size={16} aria-hidden="true" /> {waiting ? 'Building the export...' : 'Export everything'}
        </button>
      </div>
      {job?.status === 'completed' && job.downloadUrl ? (
        <p>
          <a href={job.downloadUrl}>Download the export</a> <span className="small muted">({Math.ceil(job.fileSize / 1024)} kB)</span>
        </p>
      ) : null}
      {job?.status === 'failed' ? (
        <p role="alert" className="notice notice-danger">
          The export failed: {job.error}
        </p>
      ) : null}
    </section>
  );
}

/** "Import & export" (admins): upload a WordPress or Ghost export, read the dry run, import it with
 * a progress bar, then read the report (and download it as CSV). */
export function ImportExport() {
  const { capabilities, ready } = useCapabilities();
  const allowed = capabilities.has('settings.manage');
  const dispatch = useAppDispatch();
  const fileRef = useRef<HTMLInputElement>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const [downloadImages, setDownloadImages] = useState(true);
  const [upload, uploading] = useUploadImportMutation();
  const [start, starting] = useStartImportMutation();
  const [reportCsv] = useImportReportCsvMutation();
  const [polling, setPolling] = useState(false);
  const query = useGetImportQuery(jobId ?? '', { skip: !jobId, pollingInterval: polling ? 700 : 0 });
  const job = query.data?.job;

  useEffect(() => {
    if (!job) return;
    const running = RUNNING.has(job.status);
    setPolling(running);
    if (job.status === 'completed') dispatch(invalidateAfterImport());
  }, [job, dispatch]);

  if (!ready) return <LoadingState />;
  if (!allowed) {
    return (
      <>
        <PageHeader title="Import & export" search={false} />
        <section className="card">
          <EmptyState>Only administrators can import or export the blog.</EmptyState>
        </section>
      </>
    );
  }

  async function onUpload(file: File | undefined) {
    if (!file) return;
    setJobId(null);
    const result = await upload(file);
    if ('data' in result && result.data) setJobId(result.data.job.id);
  }

  async function onStart() {
    if (!jobId) return;
    const result = await start({ id: jobId, downloadImages });
    if ('data' in result) {
      setPolling(true);
      void query.refetch();
    }
  }

  async function onCsv() {
    if (!jobId) return;
    const result = await reportCsv(jobId);
    if (!('data' in result) || !result.data) return;
    const url = URL.createObjectURL(new Blob([result.data.csv], { type: 'text/csv' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = result.data.fileName;
    link.click();
    URL.revokeObjectURL(url);
  }

  const plan = job?.plan as { counts?: Counts; conflicts?: Item[]; unsupported?: { shortcode: string; posts: number }[] } | undefined;
  const report = job?.report as { counts?: Counts; items?: Item[] } | undefined;
  const uploadError = uploading.error ? errorMessage(uploading.error, 'The file could not be read') : '';
  const startError = starting.error ? errorMessage(starting.error, 'The import could not start') : '';

  return (
    <>
      <PageHeader
        title="Import & export"
        description="Bring a blog in from WordPress or Ghost"
        search={false}
      />
      <section className="card card-body stack">
        <h2>Import</h2>
        <p className="small">
          A WordPress export (Tools → Export, an .xml file) or a Ghost export (Settings → Labs → Export, a .json
          file, or the .zip with its images). Nothing is written until you press Import.
        </p>
        <div className="row" style={{ gap: 8, flexWrap: 'wrap' }}>
          <button type="button" className="btn btn-primary" onClick={() => fileRef.current?.click()} disabled={uploading.isLoading}>
            <Upload size={16} aria-hidden="true" /> {uploading.isLoading ? 'Reading the file...' : 'Choose export file'}
          </button>
          <input
            ref={fileRef}
            type="file"
            accept=".xml,.json,.zip"
            hidden
            data-testid="import-file-input"
            aria-label="Export file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              void onUpload(file);
            }}
          />
        </div>
        {uploadError ? (
          <p role="alert" className="notice notice-danger">
            {uploadError}
          </p>
        ) : null}
      </section>

      {job ? (
        <section className="card card-body stack" aria-label="Import">
          <h2>
            {job.fileName} <span className="small muted">({job.sourceVersion})</span>
          </h2>
          {job.status === 'analysed' && plan ? (
            <>
              <h3>Dry run: what the import would do</h3>
              <CountsTable counts={plan.counts ?? {}} caption="Dry run" />
              {plan.conflicts?.length ? (
                <p className="small">{plan.conflicts.length} slugs are taken here: those posts get a suffix (-2, -3...).</p>
              ) : null}
              {plan.unsupported?.length ? (
                <p className="small">
                  Kept as text (not supported): {plan.unsupported.map((u) => `[${u.shortcode}] in ${u.posts} posts`).join(', ')}
                </p>
              ) : null}
              <label className="row small" style={{ gap: 6 }}>
                <input type="checkbox" checked={downloadImages} onChange={(e) => setDownloadImages(e.target.checked)} />
                Download the images from the old site
              </label>
              <div>
                <button type="button" className="btn btn-primary" onClick={() => void onStart()} disabled={starting.isLoading}>
                  Import
                </button>
              </div>
              {isPlanRefusal(starting.error) ? (
                <PlanNotice error={starting.error} />
              ) : startError ? (
                <p role="alert" className="notice notice-danger">
                  {startError}
                </p>
              ) : null}
            </>
          ) : null}
          {RUNNING.has(job.status) ? <Progress job={job} /> : null}
          {job.status === 'failed' ? (
            <p role="alert" className="notice notice-danger">
              The import failed and nothing was kept: {job.error}
            </p>
          ) : null}
          {job.status === 'completed' && report ? (
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
              {report.items?.length ? (
                <details>
                  <summary>{report.items.length} items not brought over as they were</summary>
                  <ul className="small">
                    {report.items.slice(0, 200).map((item, i) => (
                      <li key={i}>
                        <strong>{item.kind}</strong> {item.item}: {item.outcome} ({item.reason})
                      </li>
                    ))}
                  </ul>
                </details>
              ) : null}
            </>
          ) : null}
        </section>
      ) : null}
      <ExportPanel />
    </>
  );
}
