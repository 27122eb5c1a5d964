import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Upload } from 'lucide-react';
import { toast } from 'sonner';
import {
  invalidateAfterMemberImport,
  useGetMemberImportQuery,
  useStartMemberImportMutation,
  useUploadMemberImportMutation,
  type ImportCounts,
  type MemberImport,
} from '@/api/members';
import { useCapabilities } from '@/api/session';
import { Card } from '@/components/Card';
import { ErrorState } from '@/components/ErrorState';
import { LoadingState } from '@/components/LoadingState';
import { PageHeader } from '@/components/PageHeader';
import { PlanNotice } from '@/components/PlanNotice';
import { Spinner } from '@/components/Spinner';
import { errorMessage, fieldMessage, isPlanRefusal } from '@/lib/errors';
import { useAppDispatch } from '@/lib/hooks';
import { MEMBERS_PATH } from '../components/MemberForm';
import { labelNames } from '../schemas';

const WAITING = new Set(['analysing', 'queued', 'running']);
const SOURCES: Record<string, string> = { ghost: 'Ghost', substack: 'Substack', mailchimp: 'Mailchimp', csv: 'CSV' };

const COUNT_ROWS: [keyof ImportCounts, string, string][] = [
  ['rows', 'Rows read', 'Rows read'],
  ['created', 'New members', 'Members added'],
  ['updated', 'Already members (labels and newsletters added)', 'Members updated'],
  ['duplicates', 'Repeated further down the file', 'Repeated further down the file'],
  ['skipped', 'Left out on purpose', 'Left out on purpose'],
  ['invalid', 'Not an address, or unreadable', 'Not an address, or unreadable'],
];

function Counts({ counts, caption, done }: { counts: ImportCounts; caption: string; done: boolean }) {
  return (
    <table className="table" aria-label={caption}>
      <caption className="small muted" style={{ textAlign: 'left' }}>
        {caption}
      </caption>
      <tbody>
        {COUNT_ROWS.map(([key, planned, result]) => (
          <tr key={key}>
            <th scope="row" style={{ fontWeight: 500 }}>
              {done ? result : planned}
            </th>
            <td style={{ textAlign: 'right' }}>{counts[key]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Problems({ job }: { job: MemberImport }) {
  return (
    <>
      {job.remarks.length ? (
        <ul className="small" style={{ margin: 0 }}>
          {job.remarks.map((remark) => (
            <li key={remark}>{remark}</li>
          ))}
        </ul>
      ) : null}
      {job.problems.length ? (
        <details>
          <summary>
            {job.problems.length} {job.problems.length === 1 ? 'line is' : 'lines are'} left out
          </summary>
          <ul className="small">
            {job.problems.map((p) => (
              <li key={`${p.line}-${p.email}`}>
                Line {p.line}
                {p.email ? ` (${p.email})` : ''}: {p.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </>
  );
}

function Progress({ job }: { job: MemberImport }) {
  const total = job.dryRun?.rows ?? 0;
  const analysing = job.status === 'analysing';
  const text = analysing
    ? `Reading the file: ${job.rowsRead} rows`
    : job.status === 'queued'
      ? 'Waiting for a worker'
      : `Importing: ${job.rowsRead} of ${total} rows`;
  return (
    <div className="stack" style={{ gap: 6 }}>
      {analysing ? (
        <Spinner label={text} />
      ) : (
        <div
          className="progress"
          role="progressbar"
          aria-label="Import progress"
          aria-valuemin={0}
          aria-valuemax={total || 100}
          aria-valuenow={job.rowsRead}
          aria-valuetext={text}
        >
          <span style={{ width: `${total ? Math.min(100, Math.round((job.rowsRead / total) * 100)) : 0}%` }} />
        </div>
      )}
      <div className="small muted" role="status">
        {text}
      </div>
    </div>
  );
}

/** Members → Import CSV (members.manage): a CSV of Ghost, Substack, Mailchimp or any with an email
 * column, with labels for every imported member; its dry run, then the import with its progress and
 * report. The job is in the address (`?job=`), so a reload finds it again. */
export function MembersImport() {
  const { capabilities, ready } = useCapabilities();
  const dispatch = useAppDispatch();
  const [params, setParams] = useSearchParams();
  const jobId = params.get('job') ?? '';
  const fileRef = useRef<HTMLInputElement>(null);
  const [labels, setLabels] = useState('');
  const [upload, uploading] = useUploadMemberImportMutation();
  const [start, starting] = useStartMemberImportMutation();
  const [polling, setPolling] = useState(true);
  const query = useGetMemberImportQuery(jobId, { skip: !jobId, pollingInterval: polling ? 800 : 0 });
  const job = jobId ? query.data : undefined;

  useEffect(() => {
    if (!job) return;
    setPolling(WAITING.has(job.status));
    if (job.status === 'completed') dispatch(invalidateAfterMemberImport());
  }, [job, dispatch]);

  if (!ready) return <LoadingState />;
  if (!capabilities.has('members.manage')) {
    return (
      <>
        <PageHeader title="Import members" search={false} />
        <section className="card">
          <ErrorState title="Only editors and administrators can manage members." />
        </section>
      </>
    );
  }

  async function onUpload(file: File | undefined) {
    if (!file) return;
    starting.reset();
    try {
      const reply = await upload({ file, labels: labelNames(labels) }).unwrap();
      setPolling(true);
      setParams({ job: reply.job.id });
    } catch {
      // Told under the button (uploading.error).
    }
  }

  async function onStart() {
    if (!job) return;
    try {
      await start(job.id).unwrap();
      toast.success('Import started');
      setPolling(true);
      void query.refetch();
    } catch {
      // Told under the button (starting.error).
    }
  }

  const uploadError = uploading.error ? (fieldMessage(uploading.error, 'file') ?? errorMessage(uploading.error, 'The file could not be read')) : '';
  const startError = starting.error && !isPlanRefusal(starting.error) ? errorMessage(starting.error, 'The import could not start') : '';
  const busy = uploading.isLoading || (!!job && WAITING.has(job.status));

  return (
    <>
      <PageHeader title="Import members" description="Bring your list from Ghost, Substack, Mailchimp or any CSV" search={false} />
      <p className="small muted" style={{ margin: 0 }}>
        <Link to={MEMBERS_PATH}>Back to members</Link>
      </p>
      <Card title="A members CSV">
        <p style={{ margin: 0 }}>
          Ghost's members export, Substack's subscribers export, Mailchimp's audience export, or any CSV whose first line names an
          email column. Nothing is written until you press Import: a dry run says first what the import would do.
        </p>
        <div className="field">
          <label htmlFor="import-labels">Labels for every imported member</label>
          <input
            id="import-labels"
            className="input"
            autoComplete="off"
            aria-describedby="import-labels-hint"
            value={labels}
            onChange={(e) => setLabels(e.target.value)}
            disabled={busy}
          />
          <span id="import-labels-hint" className="field-hint">
            Optional; names separated by commas (a new name makes a new label).
          </span>
        </div>
        <div>
          <button type="button" className="btn btn-primary" onClick={() => fileRef.current?.click()} disabled={busy}>
            <Upload size={16} aria-hidden="true" /> {uploading.isLoading ? 'Sending the file...' : 'Choose CSV file'}
          </button>
          <input
            ref={fileRef}
            type="file"
            accept=".csv,text/csv"
            hidden
            aria-label="Members CSV file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              void onUpload(file);
            }}
          />
        </div>
        {uploadError ? (
          <p role="alert" className="notice notice-danger" style={{ margin: 0 }}>
            {uploadError}
          </p>
        ) : null}
      </Card>

      {jobId && !job && query.isError ? (
        <section className="card">
          <ErrorState title="This import could not be found." />
        </section>
      ) : null}
      {job ? (
        <section className="card card-body stack" aria-labelledby="import-title">
          <h2 id="import-title" className="card-title break">
            {job.fileName}
            {job.source ? <span className="small muted"> ({SOURCES[job.source] ?? job.source})</span> : null}
          </h2>
          {job.labels.length ? <p className="small" style={{ margin: 0 }}>Labels given: {job.labels.join(', ')}</p> : null}
          {WAITING.has(job.status) ? <Progress job={job} /> : null}
          {job.status === 'analysed' && job.dryRun ? (
            <>
              <h3 style={{ margin: 0 }}>Dry run: what the import would do</h3>
              <Counts counts={job.dryRun} caption="Dry run" done={false} />
              <Problems job={job} />
              <div>
                <button type="button" className="btn btn-primary" onClick={() => void onStart()} disabled={starting.isLoading || job.dryRun.created + job.dryRun.updated === 0}>
                  {starting.isLoading ? <Spinner small label="Starting" /> : null}
                  Import {job.dryRun.created + job.dryRun.updated} {job.dryRun.created + job.dryRun.updated === 1 ? 'member' : 'members'}
                </button>
              </div>
              {isPlanRefusal(starting.error) ? <PlanNotice error={starting.error} /> : null}
              {startError ? (
                <p role="alert" className="notice notice-danger" style={{ margin: 0 }}>
                  {startError}
                </p>
              ) : null}
            </>
          ) : null}
          {job.status === 'failed' ? (
            <p role="alert" className="notice notice-danger" style={{ margin: 0 }}>
              The import failed: {job.error || 'please try again'}
            </p>
          ) : null}
          {job.status === 'completed' && job.result ? (
            <>
              <p role="status" className="notice notice-success" style={{ margin: 0 }}>
                Import complete: {job.result.created} added, {job.result.updated} updated.
              </p>
              <Counts counts={job.result} caption="Imported" done />
              <Problems job={job} />
              <div>
                <Link className="btn btn-secondary" to={MEMBERS_PATH}>
                  See the members
                </Link>
              </div>
            </>
          ) : null}
        </section>
      ) : null}
    </>
  );
}
