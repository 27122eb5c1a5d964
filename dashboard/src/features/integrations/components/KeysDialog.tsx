import { Dialog } from '@/components/Dialog';
import { CopyField } from '@/components/CopyField';
import type { Integration } from '@/api/integrations';

interface Props {
  /** The integration as the create or rotate reply has it (its new keys whole); none: closed. */
  integration: Integration | null;
  /** A new integration, or new keys of one. */
  rotated?: boolean;
  ghostUrl: string;
  onClose: () => void;
}

/** The keys an integration was just given, shown this once, each with its Copy button, with the
 * API URL a tool asks for beside them. */
export function KeysDialog({ integration, rotated = false, ghostUrl, onClose }: Props) {
  const both = !!integration?.contentKey && !!integration?.adminKey;
  return (
    <Dialog
      open={!!integration}
      wide
      title={rotated ? `New keys of ${integration?.name ?? ''}` : `Keys of ${integration?.name ?? ''}`}
      onClose={onClose}
      footer={
        <button type="button" className="btn btn-primary" onClick={onClose}>
          Done
        </button>
      }
    >
      <div className="stack">
        <p className="notice notice-warning" style={{ margin: 0 }}>
          <strong>Copy {both ? 'these keys' : 'this key'} now: you won't see {both ? 'them' : 'it'} again.</strong> Once you close
          this, only the last four digits are shown; a lost key is replaced by rotating it.
          {rotated ? ' The previous key stopped working: give the tools using it the new one.' : ''}
        </p>
        <CopyField label="API URL" value={ghostUrl} hint="What a tool asks for as the Ghost URL, site URL or API URL." />
        {integration?.adminKey ? (
          <CopyField
            label="Admin API key"
            value={integration.adminKey}
            hint="For tools that publish: iA Writer, Ulysses, Obsidian, Zapier, n8n, scripts. It can write: keep it secret."
          />
        ) : null}
        {integration?.contentKey ? (
          <CopyField label="Content API key" value={integration.contentKey} hint="For reading published content through Ghost's Content API." />
        ) : null}
      </div>
    </Dialog>
  );
}
