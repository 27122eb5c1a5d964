import type { ReactNode } from 'react';

interface TabsProps<T extends string> {
  tabs: { id: T; label: ReactNode; describedBy?: string }[];
  value: T;
  onChange: (id: T) => void;
  label: string;
}

/** A row of tabs (role=tablist named `label`); the one of `value` is selected. */
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
