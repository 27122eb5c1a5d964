import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { useTwoFactorState } from '@/api/session';
import {
  useConfirmTwoFactorMutation,
  useDisableTwoFactorMutation,
  useGetTwoFactorQuery,
  useRegenerateRecoveryCodesMutation,
  useSetupTwoFactorMutation,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '@/api/twoFactor';
import { SubmitButton } from '@/components/form';
import { PasswordInput } from '@/components/PasswordInput';
import { QueryState } from '@/components/QueryState';
import { Field, Spinner } from '@/components/ui';
import { copyText } from '@/lib/clipboard';
import { errorMessage, isApiError } from '@/lib/errors';

type Mode = 'idle' | 'regenerate' | 'disable';

/** A form's save button and Cancel. */
function FormButtons({ onCancel, ...submit }: Parameters<typeof SubmitButton>[0] & { onCancel: () => void }) {
  return (
    <div className="row" style={{ flexWrap: 'wrap' }}>
      <SubmitButton {...submit} />
      <button type="button" className="btn btn-secondary" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

function fieldError(err: unknown, field: string): string | undefined {
  return isApiError(err) ? err.errors?.find((e) => e.field === field)?.message : undefined;
}

/** The account page's "Two-factor sign-in": set up (QR code, manual key, a code to confirm), the
 *  recovery codes shown once (copy, download), new recovery codes, turning it off. */
export function TwoFactorSection({ username }: { username: string }) {
  const status = useGetTwoFactorQuery();
  const { setupRequired } = useTwoFactorState();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [mode, setMode] = useState<Mode>('idle');
  const [startSetup, { isLoading: starting }] = useSetupTwoFactorMutation();

  async function begin() {
    try {
      setSetup(await startSetup().unwrap());
    } catch (err) {
      toast.error(errorMessage(err, 'Could not start the setup. Please try again.'));
    }
  }

  /** What the section shows once the status is known. */
  function content(data: TwoFactorStatus) {
    if (codes) return <RecoveryCodes codes={codes} username={username} onDone={() => setCodes(null)} />;
    if (setup && !data.enabled) {
      return (
        <SetupForm
          setup={setup}
          onCancel={() => setSetup(null)}
          onEnabled={(recoveryCodes) => {
            setSetup(null);
            setCodes(recoveryCodes);
          }}
        />
      );
    }
    if (!data.enabled) {
      return (
        <div className="stack">
          <p style={{ margin: 0 }}>
            <strong>Off.</strong> Add a second step to your sign-in: a 6-digit code from an authenticator app on your
            phone (Google Authenticator, Microsoft Authenticator, 1Password, ...).
          </p>
          <div>
            <button type="button" className="btn btn-primary" onClick={() => void begin()} disabled={starting}>
              {starting ? <Spinner small label="Starting" /> : null}
              Set up two-factor sign-in
            </button>
          </div>
        </div>
      );
    }
    return (
      <div className="stack">
        <p style={{ margin: 0 }}>
          <strong>On</strong>
          {data.enabledAt ? <> since {new Date(data.enabledAt).toLocaleDateString()}</> : null}. You have{' '}
          {data.recoveryCodesLeft} recovery code{data.recoveryCodesLeft === 1 ? '' : 's'} left.
        </p>
        {data.recoveryCodesLeft < 3 ? (
          <div className="notice notice-warning" role="status">
            You are running out of recovery codes. Make new ones.
          </div>
        ) : null}
        {mode === 'idle' ? (
          <div className="row" style={{ flexWrap: 'wrap' }}>
            <button type="button" className="btn btn-secondary" onClick={() => setMode('regenerate')}>
              New recovery codes
            </button>
            {data.required ? null : (
              <button type="button" className="btn btn-danger" onClick={() => setMode('disable')}>
                Turn off
              </button>
            )}
          </div>
        ) : mode === 'regenerate' ? (
          <RegenerateForm
            onCancel={() => setMode('idle')}
            onDone={(recoveryCodes) => {
              setMode('idle');
              setCodes(recoveryCodes);
            }}
          />
        ) : (
          <DisableForm onCancel={() => setMode('idle')} onDone={() => setMode('idle')} />
        )}
        {data.required ? <p className="muted" style={{ margin: 0 }}>Your company requires two-factor sign-in.</p> : null}
      </div>
    );
  }

  return (
    <section id="two-factor" className="card card-body stack" style={{ maxWidth: 640, marginTop: 16 }} aria-labelledby="two-factor-heading">
      <h2 id="two-factor-heading" className="h-sub">
        Two-factor sign-in
      </h2>
      {setupRequired ? (
        <div className="notice notice-warning" role="alert">
          Your company requires two-factor sign-in. Set it up here to continue using the dashboard: the other screens
          open once it is on.
        </div>
      ) : null}
      <QueryState query={status} compact loading="Loading two-factor sign-in" error="Failed to load two-factor sign-in">
        {content}
      </QueryState>
    </section>
  );
}

function SetupForm({ setup, onCancel, onEnabled }: { setup: TwoFactorSetup; onCancel: () => void; onEnabled: (codes: string[]) => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [confirm, { isLoading }] = useConfirmTwoFactorMutation();
  const qr = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.replace(/\s/g, ''))) {
      setError('Enter the 6-digit code your app shows');
      return;
    }
    setError(undefined);
    try {
      const reply = await confirm({ code: code.replace(/\s/g, '') }).unwrap();
      toast.success('Two-factor sign-in is on');
      onEnabled(reply.recoveryCodes);
    } catch (err) {
      setError(fieldError(err, 'code') ?? errorMessage(err, 'Could not check the code. Please try again.'));
    }
  }

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
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
      <Field label="Code from the app" htmlFor="setup-code" error={error}>
        <input
          id="setup-code"
          className="input input-code"
          autoComplete="one-time-code"
          inputMode="numeric"
          pattern="[0-9]*"
          maxLength={7}
          aria-invalid={!!error}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </Field>
      <FormButtons busy={isLoading} busyLabel="Checking the code" onCancel={onCancel}>
        Turn on
      </FormButtons>
    </form>
  );
}

function RecoveryCodes({ codes, username, onDone }: { codes: string[]; username: string; onDone: () => void }) {
  const text = codes.join('\n');
  function download() {
    const url = URL.createObjectURL(new Blob([`Recovery codes of ${username}\n\n${text}\n`], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  }
  return (
    <div className="stack">
      <div className="notice notice-warning" role="status">
        Save these recovery codes now: they are shown only once. Each one signs you in once if you lose your phone.
      </div>
      <ul className="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="row" style={{ flexWrap: 'wrap' }}>
        <button type="button" className="btn btn-secondary" onClick={() => void copyText(text)}>
          Copy
        </button>
        <button type="button" className="btn btn-secondary" onClick={download}>
          Download
        </button>
        <button type="button" className="btn btn-primary" onClick={onDone}>
          I have saved them
        </button>
      </div>
    </div>
  );
}

function RegenerateForm({ onCancel, onDone }: { onCancel: () => void; onDone: (codes: string[]) => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [regenerate, { isLoading }] = useRegenerateRecoveryCodesMutation();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!code.trim()) return setError('Enter the 6-digit code from your authenticator app');
    setError(undefined);
    try {
      onDone((await regenerate({ code: code.trim() }).unwrap()).recoveryCodes);
      toast.success('New recovery codes. The previous ones no longer work.');
    } catch (err) {
      setError(fieldError(err, 'code') ?? errorMessage(err, 'Could not make new codes. Please try again.'));
    }
  }

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <Field label="Code from your authenticator app" htmlFor="regenerate-code" error={error} hint="Your current recovery codes stop working.">
        <input id="regenerate-code" className="input input-code" autoComplete="one-time-code" inputMode="numeric" aria-invalid={!!error} value={code} onChange={(e) => setCode(e.target.value)} />
      </Field>
      <FormButtons busy={isLoading} busyLabel="Making codes" onCancel={onCancel}>
        Make new codes
      </FormButtons>
    </form>
  );
}

function DisableForm({ onCancel, onDone }: { onCancel: () => void; onDone: () => void }) {
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ code?: string; password?: string }>({});
  const [disable, { isLoading }] = useDisableTwoFactorMutation();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const next = {
      password: password ? undefined : 'Password is required',
      code: code.trim() ? undefined : 'Enter a code from your authenticator app or a recovery code',
    };
    setErrors(next);
    if (next.password || next.code) return;
    try {
      const reply = await disable({ code: code.trim(), password }).unwrap();
      toast.success(reply.message || 'Two-factor sign-in is off.');
      onDone();
    } catch (err) {
      const byField = { code: fieldError(err, 'code'), password: fieldError(err, 'password') };
      if (byField.code || byField.password) setErrors(byField);
      else toast.error(errorMessage(err, 'Could not turn it off. Please try again.'));
    }
  }

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <Field label="Password" htmlFor="disable-password" error={errors.password}>
        <PasswordInput id="disable-password" autoComplete="current-password" aria-invalid={!!errors.password} value={password} onChange={(e) => setPassword(e.target.value)} />
      </Field>
      <Field label="Code from your authenticator app (or a recovery code)" htmlFor="disable-code" error={errors.code}>
        <input id="disable-code" className="input" autoComplete="one-time-code" aria-invalid={!!errors.code} value={code} onChange={(e) => setCode(e.target.value)} />
      </Field>
      <FormButtons busy={isLoading} busyLabel="Turning off" tone="danger" onCancel={onCancel}>
        Turn off two-factor sign-in
      </FormButtons>
    </form>
  );
}
