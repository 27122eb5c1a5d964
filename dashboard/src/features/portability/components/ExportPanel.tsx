import { useEffect, useState } from 'react';
import { Download } from 'lucide-react';
import { useGetExportQuery, useRequestExportMutation } from '@/api/portability';

/** Export: one click; the zip is built in the background, then a signed link (also emailed). */
export function ExportPanel() {
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
