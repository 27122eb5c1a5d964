import { useEffect, useState } from 'react';
import { Search } from 'lucide-react';
import { useDebouncedValue } from '@/lib/useDebounce';

/** A list's own search field (the header's search box searches posts only): kept in the address by
 * the list, asked for from 2 characters, 300 ms after typing stops. */
export function ListSearch({ value, onChange, label }: { value: string; onChange: (value: string) => void; label: string }) {
  const [text, setText] = useState(value);
  const settled = useDebouncedValue(text, 300);
  useEffect(() => {
    const query = settled.trim().length >= 2 ? settled.trim() : '';
    if (query !== value) onChange(query);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled]);
  return (
    <div className="search-input-wrap" style={{ flex: '1 1 200px', maxWidth: 320 }}>
      <Search size={16} className="muted" aria-hidden="true" />
      <input type="search" aria-label={label} placeholder={`${label}...`} value={text} onChange={(e) => setText(e.target.value)} />
    </div>
  );
}
