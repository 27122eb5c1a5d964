import { useEffect, useState } from 'react';
import { useCapabilities } from '@/api/session';
import {
  importPlan,
  invalidateAfterImport,
  useGetImportQuery,
  useGetImportsQuery,
  useStartImportMutation,
  useUploadImportMutation,
  type ImportJob,
} from '@/api/portability';
import { Badge } from '@/components/Badge';
import { DataTable, type Column } from '@/components/DataTable';
import { EmptyState } from '@/components/EmptyState';
import { LoadingState } from '@/components/LoadingState';
import { PageHeader } from '@/components/PageHeader';
import { PlanNotice } from '@/components/PlanNotice';
import { useAppDispatch } from '@/lib/hooks';
import { errorMessage, isPlanRefusal } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { DryRun } from '../components/DryRun';
import { ExportPanel } from '../components/ExportPanel';
import { ImportFiles } from '../components/ImportFiles';
import { ImportReport } from '../components/ImportReport';
import { ProgressBar } from '../components/ProgressBar';

const RUNNING = new Set(['queued', 'running']);
const STATUS: Record<string, { label: string; tone: string }> = {
  analysed: { label: 'dry run', tone: 'primary' },
  queued: { label: 'queued', tone: 'warning' },
  running: { label: 'running', tone: 'warning' },
  completed: { label: 'completed', tone: 'success' },
  failed: { label: 'failed', tone: 'danger' },
};

function Progress({ job }: { job: ImportJob }) {
  const text = `${job.phase || 'Waiting for a worker'}: ${job.done} of ${job.total}`;
  return <ProgressBar label="Import progress" done={job.done} total={job.total} text={text} />;
}

/** The company's recent imports: one is opened to read its report or fetch its missing images. */
function EarlierImports({ current, onOpen }: { current: string | null; onOpen: (id: string) => void }) {
  const imports = useGetImportsQuery(undefined, { refetchOnMountOrArgChange: true });
  const { refetch } = imports;
  // Another import opened or uploaded: the one left is listed.
  useEffect(() => {
    if (current) void refetch();
  }, [current, refetch]);
  const jobs = (imports.data ?? []).filter((job) => job.id !== current);
  if (!jobs.length) return null;
  const columns: Column<ImportJob>[] = [
    { header: 'File', primary: true, cell: (job) => <strong className="break">{job.fileName}</strong> },
    { header: 'From', className: 'small', cell: (job) => job.sourceVersion || job.source },
    { header: 'Status', cell: (job) => <Badge tone={STATUS[job.status]?.tone}>{STATUS[job.status]?.label ?? job.status}</Badge> },
    { header: 'Uploaded', className: 'small', cell: (job) => formatDateTime(job.createdAt) },
    {
      header: 'Actions',
      actions: true,
      cell: (job) => (
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => onOpen(job.id)} aria-label={`Open the import of ${job.fileName}`}>
          Open
        </button>
      ),
    },
  ];
  return (
    <section className="card" aria-labelledby="earlier-imports-title">
      <div className="card-header">
        <h2 className="card-title" id="earlier-imports-title">
          Earlier imports
        </h2>
      </div>
      <DataTable rows={jobs} rowKey={(job) => job.id} columns={columns} label="Earlier imports" />
    </section>
  );
}

/** "Import & export" (admins): upload a WordPress or Ghost export (and its images folder as a zip),
 * read the dry run, import it with a progress bar, read the report (and download it as CSV), then
 * fetch the images it could not bring. */
export function ImportExport() {
  const { capabilities, ready } = useCapabilities();
  const allowed = capabilities.has('settings.manage');
  const dispatch = useAppDispatch();
  const [jobId, setJobId] = useState<string | null>(null);
  const [exportFile, setExportFile] = useState<File | null>(null);
  const [images, setImages] = useState<File | null>(null);
  const [downloadImages, setDownloadImages] = useState(true);
  const [inviteAuthors, setInviteAuthors] = useState(false);
  const [upload, uploading] = useUploadImportMutation();
  const [start, starting] = useStartImportMutation();
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

  /** A new dry run of the files chosen (each change of either file makes one). */
  async function analyse(file: File, archive: File | null) {
    setJobId(null);
    setInviteAuthors(false);
    starting.reset();
    const result = await upload({ file, images: archive });
    if ('data' in result && result.data) setJobId(result.data.job.id);
  }

  function onExport(file: File) {
    setExportFile(file);
    void analyse(file, images);
  }

  function onImages(file: File | null) {
    setImages(file);
    // The dry run counts what the archive holds: made again unless the import has started.
    if (exportFile && (!job || job.status === 'analysed')) void analyse(exportFile, file);
  }

  function onOpen(id: string) {
    setExportFile(null);
    setImages(null);
    uploading.reset();
    starting.reset();
    setJobId(id);
  }

  async function onStart() {
    if (!jobId) return;
    const result = await start({ id: jobId, downloadImages, inviteAuthors });
    if ('data' in result) {
      setPolling(true);
      void query.refetch();
    }
  }

  const plan = job ? importPlan(job) : undefined;
  const uploadError = uploading.error ? errorMessage(uploading.error, 'The file could not be read') : '';
  const startError = starting.error ? errorMessage(starting.error, 'The import could not start') : '';
  const accountsMade = plan?.accounts?.create;

  return (
    <>
      <PageHeader title="Import & export" description="Bring a blog in from WordPress or Ghost" search={false} />
      <section className="card card-body stack">
        <h2>Import</h2>
        <p className="small">
          A WordPress or Ghost export, with the old site&apos;s images folder as a zip if you have it. Choosing a file reads it
          and shows the dry run; nothing is written until you press Import.
        </p>
        <ImportFiles busy={uploading.isLoading} exportFile={exportFile} images={images} onExport={onExport} onImages={onImages} />
        {uploadError ? (
          <p role="alert" className="notice notice-danger">
            {uploadError}
          </p>
        ) : null}
      </section>

      {job ? (
        <section className="card card-body stack" aria-label="Import">
          <h2 className="break">
            {job.fileName} <span className="small muted">({job.sourceVersion})</span>
          </h2>
          {job.status === 'analysed' && plan ? (
            <>
              <DryRun plan={plan} />
              <h3>Start the import</h3>
              <div className="stack" style={{ gap: 8 }}>
                <label className="row small" style={{ gap: 6 }}>
                  <input type="checkbox" checked={downloadImages} onChange={(e) => setDownloadImages(e.target.checked)} />
                  Download the images from the old site
                </label>
                {accountsMade !== 0 ? (
                  <div className="stack" style={{ gap: 2 }}>
                    <label className="row small" style={{ gap: 6 }}>
                      <input
                        type="checkbox"
                        checked={inviteAuthors}
                        aria-describedby="invite-authors-hint"
                        onChange={(e) => setInviteAuthors(e.target.checked)}
                      />
                      Invite the authors by email
                    </label>
                    <span className="field-hint" id="invite-authors-hint">
                      Each new author account gets an invitation to choose a password. Otherwise the accounts wait, inactive,
                      until you invite them from Users.
                    </span>
                  </div>
                ) : null}
              </div>
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
          {job.status === 'completed' ? <ImportReport job={job} /> : null}
        </section>
      ) : null}
      <EarlierImports current={jobId} onOpen={onOpen} />
      <ExportPanel />
    </>
  );
}
