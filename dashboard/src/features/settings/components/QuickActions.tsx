import { useState } from 'react';
import { Copy, Download, KeyRound, Plug, RefreshCw, Webhook } from 'lucide-react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { useRotateApiKeyMutation, type ClientInfo } from '@/api/company';
import { useCan } from '@/api/session';
import { Card } from '@/components/Card';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { toastError } from '@/components/notify';
import { copyText } from '@/lib/clipboard';
import { buildApiGuide } from '../guide';

/** "Download API Guide": the plain-text guide as a file. */
function download(info: ClientInfo) {
  try {
    const blob = new Blob([buildApiGuide(info)], { type: 'text/plain' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `api-guide-${info.company.subdomain}.txt`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    URL.revokeObjectURL(url);
  } catch {
    toast.error('Failed to generate documentation');
  }
}

interface Props {
  info: ClientInfo;
  /** Admins rotate the key and reach the webhooks. */
  canManage: boolean;
  onRefresh: () => void;
}

/** Quick Actions: the API guide, refresh, copy or rotate the API key, webhooks, integrations. */
export function QuickActions({ info, canManage, onRefresh }: Props) {
  const canIntegrate = useCan('integrations.manage');
  const [rotate, { isLoading: rotating }] = useRotateApiKeyMutation();
  const [confirmRotate, setConfirmRotate] = useState(false);

  async function doRotate() {
    try {
      const reply = await rotate().unwrap();
      toast.success(reply?.message || 'API key rotated');
    } catch (err) {
      toastError(err, 'Failed to update client information');
    } finally {
      setConfirmRotate(false);
    }
  }

  return (
    <Card title="Quick Actions">
      <button type="button" className="btn btn-secondary" onClick={() => download(info)}>
        <Download size={16} /> Download API Guide
      </button>
      <button type="button" className="btn btn-secondary" onClick={onRefresh}>
        <RefreshCw size={16} /> Refresh Data
      </button>
      <button type="button" className="btn btn-secondary" onClick={() => copyText(info.apiInfo.authentication.apiKey)}>
        <Copy size={16} /> Copy API Key
      </button>
      {canManage ? (
        <>
          <button type="button" className="btn btn-danger" onClick={() => setConfirmRotate(true)}>
            <KeyRound size={16} /> Rotate API Key
          </button>
          <Link className="btn btn-secondary" to="/dashboard/settings/webhooks">
            <Webhook size={16} /> Webhooks
          </Link>
        </>
      ) : null}
      {canIntegrate ? (
        <Link className="btn btn-secondary" to="/dashboard/settings/integrations">
          <Plug size={16} /> Integrations
        </Link>
      ) : null}
      <ConfirmDialog
        open={confirmRotate}
        title="Rotate API key"
        confirmLabel="Rotate Key"
        busy={rotating}
        onCancel={() => setConfirmRotate(false)}
        onConfirm={doRotate}
      >
        <p style={{ margin: 0 }}>
          A new API key will be created and the current one stops working at once. Websites using it must be updated.
        </p>
      </ConfirmDialog>
    </Card>
  );
}
