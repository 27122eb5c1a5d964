import { useId, useState } from 'react';
import type { Integration, IntegrationKey } from '@/api/integrations';
import { Dialog } from '@/components/Dialog';
import { Spinner } from '@/components/Spinner';

type Choice = 'both' | IntegrationKey;

const KEYS: Record<Choice, IntegrationKey[]> = { both: ['content', 'admin'], content: ['content'], admin: ['admin'] };

interface Props {
  integration: Integration | null;
  busy: boolean;
  onCancel: () => void;
  onRotate: (keys: IntegrationKey[]) => void;
}

/** "Rotate keys": which keys to replace (both, the Content API key or the Admin API key). The
 * website's integration starts on its Admin API key: its Content API key is the website's. */
export function RotateDialog({ integration, busy, onCancel, onRotate }: Props) {
  if (!integration) return null;
  return <OpenRotate key={integration.id} integration={integration} busy={busy} onCancel={onCancel} onRotate={onRotate} />;
}

function OpenRotate({ integration, busy, onCancel, onRotate }: Props & { integration: Integration }) {
  const name = useId();
  const [choice, setChoice] = useState<Choice>(integration.companyKey ? 'admin' : 'both');
  const options: { value: Choice; label: string }[] = [
    { value: 'both', label: 'Both keys' },
    { value: 'admin', label: integration.adminKeyId ? 'The Admin API key only' : 'The Admin API key only (it has none yet: make one)' },
    { value: 'content', label: 'The Content API key only' },
  ];
  const websiteKeyChanges = integration.companyKey && choice !== 'admin';
  return (
    <Dialog
      open
      title={`Rotate keys of ${integration.name}`}
      onClose={onCancel}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button type="button" className="btn btn-danger" onClick={() => onRotate(KEYS[choice])} disabled={busy}>
            {busy ? <Spinner small label="Rotating" /> : null}
            Rotate
          </button>
        </>
      }
    >
      <div className="stack">
        <fieldset className="check-groups">
          <legend>Keys to rotate</legend>
          {options.map((option) => (
            <label key={option.value} className="check">
              <input type="radio" name={name} value={option.value} checked={choice === option.value} onChange={() => setChoice(option.value)} />
              <span>{option.label}</span>
            </label>
          ))}
        </fieldset>
        <p style={{ margin: 0 }}>
          New keys are shown once. The keys rotated stop working at once: give the tools that use them the new ones.
        </p>
        {websiteKeyChanges ? (
          <p className="notice notice-warning" role="status" style={{ margin: 0 }}>
            The Content API key of {integration.name} is your company's Ghost content key, which your website may use:
            rotating it changes the website's key too.
          </p>
        ) : null}
      </div>
    </Dialog>
  );
}
