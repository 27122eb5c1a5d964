import type { TwoFactorSetup } from '@/api/twoFactor';
import { Field } from '@/components/Field';
import { copyText } from '@/lib/clipboard';

/** The set-up step's key for the authenticator app: the steps, its QR code and the manual key
 *  (grouped by four, with Copy key). */
export function AuthenticatorKey({ setup }: { setup: TwoFactorSetup }) {
  const qr = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`;
  return (
    <>
      <ol className="stack" style={{ margin: 0, paddingLeft: 20 }}>
        <li>Scan this QR code with your authenticator app.</li>
        <li>Or enter this key in the app by hand.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <div className="qr-code-box">
        <img src={qr} alt="QR code of your authenticator key" width={180} height={180} />
      </div>
      <Field label="Manual key" htmlFor="manual-key">
        <div className="row" style={{ flexWrap: 'wrap' }}>
          <code id="manual-key" className="manual-key" data-testid="manual-key">
            {setup.secret.replace(/(.{4})/g, '$1 ').trim()}
          </code>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void copyText(setup.secret)}>
            Copy key
          </button>
        </div>
      </Field>
    </>
  );
}
