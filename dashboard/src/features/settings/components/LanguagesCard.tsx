import { useState } from 'react';
import { toast } from 'sonner';
import { useCan } from '@/api/session';
import { useGetLanguagesQuery, useUpdateLanguagesMutation, type Languages } from '@/api/translations';
import { QueryState } from '@/components/QueryState';
import { toastError } from '@/components/notify';

/** The languages the company writes in (BCP 47 codes, checked by the server), its default, and each
 * language's fallback chain (where a reader asking for it is served from when a post lacks it). */
function LanguagesForm({ data, editable }: { data: Languages; editable: boolean }) {
  const [codes, setCodes] = useState(data.languages.map((language) => language.code));
  const [defaultLanguage, setDefault] = useState(data.defaultLanguage);
  const [adding, setAdding] = useState('');
  const [save, { isLoading }] = useUpdateLanguagesMutation();
  const names = new Map(data.languages.map((language) => [language.code, language.name]));
  const chains = new Map(data.languages.map((language) => [language.code, language.chain]));
  const changed = codes.join() !== data.languages.map((language) => language.code).join() || defaultLanguage !== data.defaultLanguage;

  async function onSave() {
    try {
      const fallbacks = Object.fromEntries(Object.entries(data.fallbacks).filter(([code]) => codes.includes(code)));
      const reply = await save({ languages: codes, defaultLanguage, fallbacks }).unwrap();
      setCodes(reply.languages.map((language) => language.code));
      toast.success(reply.message || 'Languages saved');
    } catch (err) {
      toastError(err, 'Could not save the languages');
    }
  }

  function add() {
    const code = adding.trim();
    if (code && !codes.includes(code)) setCodes([...codes, code]);
    setAdding('');
  }

  return (
    <div className="stack">
      <ul className="stack" style={{ listStyle: 'none', margin: 0, padding: 0, gap: 6 }} aria-label="Company languages">
        {codes.map((code) => (
          <li key={code} className="row" style={{ gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
            <span className="badge badge-primary">{code}</span>
            <span>{names.get(code) ?? 'new'}</span>
            {code === defaultLanguage ? <span className="badge badge-success">default</span> : null}
            {chains.get(code) && (chains.get(code)?.length ?? 0) > 1 ? (
              <span className="small muted">falls back to {chains.get(code)?.slice(1).join(' → ')}</span>
            ) : null}
            {editable && code !== defaultLanguage ? (
              <span className="row" style={{ gap: 4, marginLeft: 'auto' }}>
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => setDefault(code)}>
                  Make default
                </button>
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  aria-label={`Remove ${code}`}
                  onClick={() => setCodes(codes.filter((other) => other !== code))}
                >
                  Remove
                </button>
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      {editable ? (
        <>
          <div className="row" style={{ gap: 8, flexWrap: 'wrap', alignItems: 'end' }}>
            <label className="stack" style={{ gap: 4 }} htmlFor="add-language">
              <span className="small">Add a language (a code such as fr, de or pt-BR)</span>
              <input
                id="add-language"
                className="input"
                value={adding}
                onChange={(event) => setAdding(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') {
                    event.preventDefault();
                    add();
                  }
                }}
                style={{ maxWidth: 160 }}
              />
            </label>
            <button type="button" className="btn btn-secondary btn-sm" onClick={add} disabled={!adding.trim()}>
              Add
            </button>
          </div>
          <div>
            <button type="button" className="btn btn-primary" disabled={!changed || isLoading} onClick={() => void onSave()}>
              {isLoading ? 'Saving…' : 'Save languages'}
            </button>
          </div>
        </>
      ) : null}
    </div>
  );
}

export function LanguagesCard() {
  const editable = useCan('settings.manage');
  const languages = useGetLanguagesQuery();
  return (
    <section className="card card-body stack" style={{ marginTop: 16 }} aria-labelledby="languages-title">
      <h2 id="languages-title" className="h-sub">
        Languages
      </h2>
      <p className="muted" style={{ margin: 0 }}>
        The languages your posts are written in. Websites ask for one with <code>?locale=</code>; a post missing in that
        language is served in the next language of its chain, ending with the default.
      </p>
      <QueryState query={languages} compact loading="Loading languages" error="Failed to load the languages">
        {(data) => <LanguagesForm key={data.languages.map((l) => l.code).join()} data={data} editable={editable} />}
      </QueryState>
    </section>
  );
}
