import { useEffect, useState, type KeyboardEvent } from 'react';

interface Options<T> {
  /** The options of the list, in order. */
  rows: T[];
  /** The listbox's id (options get `{listId}-option-{index}`). */
  listId: string;
  /** Whether the list is on show. */
  shown: boolean;
  open: () => void;
  close: () => void;
  clear: () => void;
  choose: (row: T) => void;
}

/**
 * The keys of a combobox whose focus stays in its box: ArrowDown/ArrowUp open the list and move
 * through the options (wrapping), Enter chooses the highlighted one, Escape closes the list and
 * a second Escape clears the box. A new list starts with nothing highlighted.
 */
export function useComboboxKeys<T>({ rows, listId, shown, open, close, clear, choose }: Options<T>) {
  const [active, setActive] = useState(-1);
  const optionId = (i: number) => `${listId}-option-${i}`;

  useEffect(() => setActive(-1), [rows]);
  useEffect(() => {
    if (active >= 0) document.getElementById(`${listId}-option-${active}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [active, listId]);

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      open();
      if (rows.length === 0) return;
      if (e.key === 'ArrowDown') setActive((a) => (a + 1) % rows.length);
      else setActive((a) => (a <= 0 ? rows.length - 1 : a - 1));
    } else if (e.key === 'Enter') {
      if (shown && active >= 0 && rows[active]) {
        e.preventDefault();
        choose(rows[active]);
      }
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      if (shown) close();
      else clear();
    }
  }

  return { active, setActive, optionId, onKeyDown };
}
