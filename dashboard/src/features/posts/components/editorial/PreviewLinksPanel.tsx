import { useState } from 'react';
import { toast } from 'sonner';
import {
  useCreatePreviewLinkMutation,
  useGetPreviewLinksQuery,
  useRevokePreviewLinkMutation,
  type PreviewLink,
} from '@/api/previewLinks';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { Spinner } from '@/components/Spinner';
import { toastError } from '@/components/notify';
import { copyText } from '@/lib/clipboard';
import { formatDateTime } from '@/lib/format';
import { useKind } from '../../kinds';

/** The request a website (or a person with the content key) sends to read the draft. */
export function exampleRequest(url: string): string {
  return `curl -H "x-api-key: YOUR_CONTENT_KEY" "${url}"`;
}

interface Props {
  postId: string;
  /** Links are made from drafts and scheduled posts only. */
  canCreate: boolean;
}

function LinkRow({ link, onRevoke }: { link: PreviewLink; onRevoke: (link: PreviewLink) => void }) {
  const active = link.status === 'active' && link.url;
  return (
    <li className="preview-link">
      <span className="small">
        <span className={`badge badge-${link.status === 'active' ? 'success' : 'archived'}`}>{link.status}</span>{' '}
        {link.createdBy ? `by ${link.createdBy.username}, ` : ''}
        {link.status === 'revoked'
          ? `revoked ${formatDateTime(link.revokedAt)}`
          : `${link.status === 'expired' ? 'expired' : 'expires'} ${formatDateTime(link.expiresAt)}`}
      </span>
      {active ? (
        <>
          <code data-testid="preview-url">{link.url}</code>
          <span className="preview-actions">
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => void copyText(link.url ?? '')}>
              Copy link
            </button>
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => void copyText(exampleRequest(link.url ?? ''))}
            >
              Copy example request
            </button>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => onRevoke(link)}>
              Revoke
            </button>
          </span>
        </>
      ) : null}
    </li>
  );
}

/** Preview links of a draft: read through the public API with the content key, until they
 * expire or are revoked. */
export function PreviewLinksPanel({ postId, canCreate }: Props) {
  const kind = useKind();
  const ref = { kind: kind.api, id: postId };
  const { data: links, isLoading, isError } = useGetPreviewLinksQuery(ref);
  const [create, { isLoading: creating }] = useCreatePreviewLinkMutation();
  const [revoke, { isLoading: revoking }] = useRevokePreviewLinkMutation();
  const [confirming, setRevoking] = useState<PreviewLink | null>(null);
  const example = links?.find((l) => l.status === 'active' && l.url)?.url;
  return (
    <section className="card card-body stack" aria-labelledby="preview-links-title">
      <h2 id="preview-links-title" className="card-title">
        Preview links
      </h2>
      <p className="small muted" style={{ margin: 0 }}>
        A preview link lets your website (or a reviewer) read this unpublished {kind.noun} through the content API with your
        content key, until it expires or you revoke it.
      </p>
      {canCreate ? (
        <button
          type="button"
          className="btn btn-secondary"
          disabled={creating}
          onClick={async () => {
            try {
              const reply = await create(ref).unwrap();
              toast.success(reply.message || 'Preview link created');
            } catch (err) {
              toastError(err, 'Could not create a preview link');
            }
          }}
        >
          {creating ? <Spinner small label="Creating" /> : null}
          Create preview link
        </button>
      ) : (
        <p className="small" style={{ margin: 0 }}>
          Only drafts and scheduled {kind.plural} get preview links.
        </p>
      )}
      {isLoading ? <Spinner small label="Loading preview links" /> : null}
      {isError ? <p className="small">Could not load the preview links.</p> : null}
      {links && links.length ? (
        <ul className="revision-list" aria-label="Preview links">
          {links.map((link) => (
            <LinkRow key={link.id} link={link} onRevoke={setRevoking} />
          ))}
        </ul>
      ) : null}
      {example ? (
        <div className="stack" style={{ gap: 4 }}>
          <span className="small muted">Example request</span>
          <code className="small" style={{ overflowWrap: 'anywhere' }} data-testid="preview-example">
            {exampleRequest(example)}
          </code>
        </div>
      ) : null}
      <ConfirmDialog
        open={!!confirming}
        title="Revoke this preview link?"
        confirmLabel="Revoke"
        busy={revoking}
        onCancel={() => setRevoking(null)}
        onConfirm={async () => {
          if (!confirming) return;
          try {
            const reply = await revoke({ id: postId, linkId: confirming.id, kind: kind.api }).unwrap();
            toast.success(reply.message || 'Preview link revoked');
          } catch (err) {
            toastError(err, 'Could not revoke the link');
          } finally {
            setRevoking(null);
          }
        }}
      >
        <p style={{ margin: 0 }}>Anyone using it gets "not found" from now on.</p>
      </ConfirmDialog>
    </section>
  );
}
