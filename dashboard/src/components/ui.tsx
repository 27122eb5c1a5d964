import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { X } from 'lucide-react';
import { capitalize } from '@/lib/format';
import { focusables, useFocusTrap } from './focus';

export function Spinner({ small, label = 'Loading' }: { small?: boolean; label?: string }) {
  return <span className={small ? 'spinner sm' : 'spinner'} role="status" aria-label={label} />;
}

export function LoadingState({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="state">
      <Spinner />
      <span>{label}</span>
    </div>
  );
}

export function EmptyState({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <div className="state">
      <div>{children}</div>
      {action}
    </div>
  );
}

/** A failure (role=alert): its title, a detail line, Try Again, and other ways out (`children`). */
export function ErrorState({ title, message, onRetry, children }: { title: string; message?: string; onRetry?: () => void; children?: ReactNode }) {
  return (
    <div className="state" role="alert">
      <strong className="text-danger">{title}</strong>
      {message ? <span>{message}</span> : null}
      {onRetry ? (
        <button type="button" className="btn btn-secondary" onClick={onRetry}>
          Try Again
        </button>
      ) : null}
      {children}
    </div>
  );
}

export function Badge({ tone, children }: { tone?: string; children: ReactNode }) {
  return <span className={tone ? `badge badge-${tone}` : 'badge'}>{children}</span>;
}

export function StatusBadge({ status }: { status?: string | null }) {
  if (!status) return null;
  return <Badge tone={status}>{capitalize(status)}</Badge>;
}

/** Click outside / Escape closes a floating element. */
export function useDismiss(open: boolean, onClose: () => void) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) onClose();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, onClose]);
  return ref;
}

interface DialogProps {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
}

export function Dialog(props: DialogProps) {
  if (!props.open) return null;
  return <OpenDialog {...props} />;
}

/** A modal dialog: focus moves into it, Tab stays inside it, Escape closes it, and focus goes
 * back to the control that opened it. */
function OpenDialog({ title, onClose, children, footer, wide }: DialogProps) {
  const titleId = useId();
  const ref: RefObject<HTMLDivElement | null> = useFocusTrap<HTMLDivElement>(true, onClose, (): HTMLElement | null => {
    // The first control of the body (a field), else of the footer (Cancel), else Close.
    for (const part of ['.dialog-body', '.dialog-footer']) {
      const el: HTMLElement | null | undefined = ref.current?.querySelector<HTMLElement>(part);
      const first: HTMLElement | undefined = el ? focusables(el)[0] : undefined;
      if (first) return first;
    }
    return null;
  });
  // Rendered into <body> so a dialog with its own form never nests inside the page's form.
  return createPortal(
    <div
      className="dialog-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div ref={ref} className={wide ? 'dialog wide' : 'dialog'} role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <div className="dialog-header">
          <h2 id={titleId} className="card-title">
            {title}
          </h2>
          <button type="button" className="btn btn-ghost btn-icon" aria-label="Close" onClick={onClose}>
            <X size={18} />
          </button>
        </div>
        <div className="dialog-body">{children}</div>
        {footer ? <div className="dialog-footer">{footer}</div> : null}
      </div>
    </div>,
    document.body,
  );
}

interface ConfirmProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({ open, title, children, confirmLabel = 'Delete', busy, onConfirm, onCancel }: ConfirmProps) {
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onCancel}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button type="button" className="btn btn-danger" onClick={onConfirm} disabled={busy}>
            {busy ? <Spinner small label="Working" /> : null}
            {confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}

interface FieldProps {
  label: ReactNode;
  htmlFor?: string;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
  aside?: ReactNode;
}

export function Field({ label, htmlFor, error, hint, children, aside }: FieldProps) {
  return (
    <div className="field">
      <div className="row-between">
        <label htmlFor={htmlFor}>{label}</label>
        {aside}
      </div>
      {children}
      {hint && !error ? <span className="field-hint">{hint}</span> : null}
      {error ? (
        <span className="field-error" role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}

interface TabsProps<T extends string> {
  tabs: { id: T; label: ReactNode; describedBy?: string }[];
  value: T;
  onChange: (id: T) => void;
  label: string;
}

export function Tabs<T extends string>({ tabs, value, onChange, label }: TabsProps<T>) {
  return (
    <div className="tabs" role="tablist" aria-label={label}>
      {tabs.map((t) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          aria-selected={value === t.id}
          aria-describedby={t.describedBy}
          className="tab"
          onClick={() => onChange(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
