import { useState } from 'react';
import { Plus, RefreshCw } from 'lucide-react';
import { Spinner } from '@/components/Spinner';
import { toastError } from '@/components/notify';
import { slugify } from '@/lib/slug';
import { AddTermDialog } from './AddTermDialog';

export interface Term {
  id: string;
  name: string;
  slug: string;
  postCount?: number;
}

interface Props {
  kind: 'category' | 'tag';
  label: string;
  terms: Term[];
  loading: boolean;
  value: string[];
  onChange: (ids: string[]) => void;
  onRefresh: () => void;
  onCreate: (input: { name: string; slug: string; description?: string }) => Promise<Term>;
  error?: string;
  /** Names suggested for the post (AI drafts); those that do not exist yet are offered one click
   * away ("+ Name" creates and selects it). */
  suggestions?: string[];
}

export const MOST_USED_COUNT = 5;

/** Checkbox multi-select with All / Most Used tabs, refresh, and an Add New dialog. */
export function TermMultiSelect({ kind, label, terms, loading, value, onChange, onRefresh, onCreate, error, suggestions }: Props) {
  const [tab, setTab] = useState<'all' | 'most'>('all');
  const [adding, setAdding] = useState(false);
  const [creating, setCreating] = useState<string | null>(null);
  const known = (n: string) => terms.some((t) => t.name.toLowerCase() === n.toLowerCase() || t.slug === slugify(n));
  const offered = loading ? [] : [...new Set(suggestions ?? [])].filter((n) => n.trim() && !known(n));

  async function createSuggested(name: string) {
    setCreating(name);
    try {
      const created = await onCreate({ name, slug: slugify(name) });
      onChange(value.includes(created.id) ? value : [...value, created.id]);
    } catch (err) {
      toastError(err, `Failed to create ${kind}`);
    } finally {
      setCreating(null);
    }
  }
  const shown =
    tab === 'all'
      ? terms
      : [...terms].sort((a, b) => (b.postCount ?? 0) - (a.postCount ?? 0)).slice(0, MOST_USED_COUNT);

  function toggle(id: string) {
    onChange(value.includes(id) ? value.filter((v) => v !== id) : [...value, id]);
  }

  return (
    <div className="field">
      <div className="row-between">
        <span className="label" id={`${kind}-label`}>
          {label}
        </span>
        <div className="row" style={{ gap: 2 }}>
          <button type="button" className="btn btn-ghost btn-icon" aria-label={`Refresh ${label.toLowerCase()}`} onClick={onRefresh}>
            <RefreshCw size={14} />
          </button>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setAdding(true)}>
            <Plus size={14} /> Add New
          </button>
        </div>
      </div>
      <div className="segmented" role="group" aria-label={`${label} view`} style={{ alignSelf: 'flex-start' }}>
        <button type="button" aria-pressed={tab === 'all'} onClick={() => setTab('all')}>
          All
        </button>
        <button type="button" aria-pressed={tab === 'most'} onClick={() => setTab('most')}>
          Most Used
        </button>
      </div>
      <div className="multi-list" role="group" aria-labelledby={`${kind}-label`}>
        {loading ? (
          <Spinner small />
        ) : shown.length === 0 ? (
          <span className="small muted" style={{ padding: 6 }}>
            No {kind === 'category' ? 'categories' : 'tags'} yet
          </span>
        ) : (
          shown.map((t) => (
            <label key={t.id}>
              <input type="checkbox" checked={value.includes(t.id)} onChange={() => toggle(t.id)} />
              <span className="grow">{t.name}</span>
              {tab === 'most' ? <span className="small muted">{t.postCount ?? 0}</span> : null}
            </label>
          ))
        )}
      </div>
      {offered.length ? (
        <div className="row wrap" style={{ gap: 6 }} role="group" aria-label={`Suggested ${label.toLowerCase()}`}>
          <span className="small muted">Suggested:</span>
          {offered.map((name) => (
            <button
              key={name}
              type="button"
              className="btn btn-secondary btn-sm"
              aria-label={`Create and select ${kind} ${name}`}
              disabled={creating !== null}
              onClick={() => void createSuggested(name)}
            >
              {creating === name ? <Spinner small label="Creating" /> : <Plus size={12} aria-hidden="true" />}
              {name}
            </button>
          ))}
        </div>
      ) : null}
      {error ? (
        <span className="field-error" role="alert">
          {error}
        </span>
      ) : null}
      {adding ? (
        <AddTermDialog
          kind={kind}
          onClose={() => setAdding(false)}
          onCreate={async (input) => {
            const created = await onCreate(input);
            onChange(value.includes(created.id) ? value : [...value, created.id]);
            setAdding(false);
          }}
        />
      ) : null}
    </div>
  );
}
