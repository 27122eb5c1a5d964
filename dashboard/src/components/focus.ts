import { useEffect, useRef } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

export function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.closest('[hidden]') && el.getClientRects().length > 0);
}

/**
 * While `active`: focus moves into the element (its first control, or `initial`), Tab and
 * Shift+Tab stay inside it, Escape calls `onEscape`; when it ends, focus goes back to the element
 * that had it before (the button that opened a dialog or a menu).
 */
export function useFocusTrap<T extends HTMLElement>(active: boolean, onEscape?: () => void, initial?: () => HTMLElement | null) {
  const ref = useRef<T>(null);
  const escape = useRef(onEscape);
  escape.current = onEscape;
  const first = useRef(initial);
  first.current = initial;

  useEffect(() => {
    if (!active) return;
    const root = ref.current;
    if (!root) return;
    const before = document.activeElement as HTMLElement | null;
    const target = first.current?.() ?? focusables(root)[0] ?? root;
    if (target === root && !root.hasAttribute('tabindex')) root.setAttribute('tabindex', '-1');
    target.focus();

    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && escape.current) {
        e.stopPropagation();
        escape.current();
        return;
      }
      if (e.key !== 'Tab') return;
      const items = focusables(root);
      if (items.length === 0) {
        e.preventDefault();
        return;
      }
      const firstItem = items[0];
      const lastItem = items[items.length - 1];
      const current = document.activeElement;
      if (e.shiftKey && (current === firstItem || !root.contains(current))) {
        e.preventDefault();
        lastItem.focus();
      } else if (!e.shiftKey && (current === lastItem || !root.contains(current))) {
        e.preventDefault();
        firstItem.focus();
      }
    };
    root.addEventListener('keydown', onKey);
    return () => {
      root.removeEventListener('keydown', onKey);
      if (before && document.contains(before)) before.focus();
    };
  }, [active]);
  return ref;
}

/** Arrow keys, Home and End move focus among `items` (menus); returns true when handled. */
export function moveFocus(e: { key: string; preventDefault: () => void }, items: HTMLElement[]): boolean {
  if (items.length === 0) return false;
  const index = items.indexOf(document.activeElement as HTMLElement);
  let next = -1;
  if (e.key === 'ArrowDown') next = index < 0 ? 0 : (index + 1) % items.length;
  else if (e.key === 'ArrowUp') next = index < 0 ? items.length - 1 : (index - 1 + items.length) % items.length;
  else if (e.key === 'Home') next = 0;
  else if (e.key === 'End') next = items.length - 1;
  if (next < 0) return false;
  e.preventDefault();
  items[next].focus();
  return true;
}
