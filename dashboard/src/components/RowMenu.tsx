import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { MoreHorizontal } from 'lucide-react';
import { moveFocus } from './focus';
import { useDismiss } from './useDismiss';

export interface RowMenuItem {
  label: string;
  icon?: ReactNode;
  onSelect: () => void;
  danger?: boolean;
}

/** The row's actions: a menu button (Enter, Space or ArrowDown opens it on its first item;
 * arrows, Home and End move; Escape closes it and gives focus back to the button). */
export function RowMenu({ label, items }: { label: string; items: RowMenuItem[] }) {
  const [open, setOpen] = useState<false | 'first' | 'last'>(false);
  const close = useCallback(() => setOpen(false), []);
  const ref = useDismiss(!!open, close);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);

  const menuItems = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  useEffect(() => {
    if (!open) return;
    const list = menuItems();
    (open === 'last' ? list[list.length - 1] : list[0])?.focus();
  }, [open]);

  function closeAndReturn() {
    setOpen(false);
    button.current?.focus();
  }

  function onMenuKey(e: KeyboardEvent) {
    if (e.key === 'Escape') {
      e.stopPropagation();
      closeAndReturn();
    } else if (e.key === 'Tab') {
      setOpen(false);
    } else {
      moveFocus(e, menuItems());
    }
  }

  return (
    <div className="relative" ref={ref} style={{ display: 'inline-block' }}>
      <button
        ref={button}
        type="button"
        className="btn btn-ghost btn-icon"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={!!open}
        onClick={() => setOpen((o) => (o ? false : 'first'))}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setOpen(e.key === 'ArrowUp' ? 'last' : 'first');
          }
        }}
      >
        <MoreHorizontal size={18} />
      </button>
      {open ? (
        <div className="menu card" role="menu" aria-label={label} ref={menu} onKeyDown={onMenuKey}>
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={item.danger ? 'menu-item danger' : 'menu-item'}
              onClick={() => {
                setOpen(false);
                // The menu goes away: focus returns to its button first, so a dialog the item
                // opens gives it back there when it closes.
                button.current?.focus();
                item.onSelect();
              }}
            >
              {item.icon}
              {item.label}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
