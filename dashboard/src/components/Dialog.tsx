import { useId, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { X } from 'lucide-react';
import { focusables, useFocusTrap } from './focus';

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
