import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { Post } from '@/api/posts';
import { useCan } from '@/api/session';
import { useAddTranslationMutation, useGetLanguagesQuery, useTranslateWithAiMutation } from '@/api/translations';
import { toastError } from '@/components/notify';
import { useKind } from '../../kinds';

/** The post's language switcher (companies with more than one language): every translation of its
 * group with its status, and the company's other languages with "Add translation" (a draft copy)
 * and "Translate with AI" (a machine-made draft, made on the AI queue, never published by itself). */
export function TranslationsPanel({ post }: { post: Post }) {
  const navigate = useNavigate();
  const kind = useKind();
  const languages = useGetLanguagesQuery();
  const canCreate = useCan('post.create');
  const canAi = useCan('ai.generate') && kind.aiTranslation;
  const [addTranslation, { isLoading: adding }] = useAddTranslationMutation();
  const [translate, { isLoading: translating }] = useTranslateWithAiMutation();
  const translations = post.translations ?? [];
  const names = new Map((languages.data?.languages ?? []).map((language) => [language.code, language.name]));
  const missing = (languages.data?.languages ?? []).filter(
    (language) => !translations.some((translation) => translation.language === language.code),
  );
  const [target, setTarget] = useState('');
  const chosen = target || missing[0]?.code || '';
  if (!post.language) return null; // a company with one language

  async function add(withAi: boolean) {
    try {
      const id = withAi
        ? (await translate({ id: post.id, language: chosen }).unwrap()).data.postId
        : (await addTranslation({ id: post.id, language: chosen, kind: kind.api }).unwrap()).post.id;
      toast.success(withAi ? 'Machine-made draft created. Review it before publishing.' : 'Translation created');
      navigate(kind.edit(id));
    } catch (err) {
      toastError(err, 'Could not create the translation');
    }
  }

  const busy = adding || translating;
  return (
    <section className="card card-body stack" aria-labelledby="translations-title" data-testid="translations">
      <h2 id="translations-title" className="card-title">
        Translations
      </h2>
      <ul className="stack" style={{ listStyle: 'none', margin: 0, padding: 0, gap: 6 }}>
        {translations.map((translation) => (
          <li key={translation.id} className="row" style={{ gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
            <span className="badge badge-primary" lang={translation.language}>
              {translation.language}
            </span>
            {translation.id === post.id ? (
              <strong aria-current="page">{names.get(translation.language) ?? translation.language}</strong>
            ) : (
              <Link to={kind.edit(translation.id)} lang={translation.language}>
                {names.get(translation.language) ?? translation.language}: {translation.title}
              </Link>
            )}
            <span className={`badge badge-${translation.isScheduled ? 'warning' : translation.status}`}>
              {translation.isScheduled ? 'scheduled' : translation.status}
            </span>
          </li>
        ))}
      </ul>
      {canCreate && missing.length > 0 ? (
        <div className="stack" style={{ gap: 8 }}>
          <label className="label" htmlFor="translation-language">
            Translate into
          </label>
          <select
            id="translation-language"
            className="select"
            value={chosen}
            onChange={(event) => setTarget(event.target.value)}
            disabled={busy}
          >
            {missing.map((language) => (
              <option key={language.code} value={language.code}>
                {language.name} ({language.code})
              </option>
            ))}
          </select>
          <div className="row" style={{ gap: 8, flexWrap: 'wrap' }}>
            <button type="button" className="btn btn-secondary" disabled={busy} onClick={() => void add(false)}>
              Add translation
            </button>
            {canAi ? (
              <button type="button" className="btn btn-secondary" disabled={busy} onClick={() => void add(true)}>
                {translating ? 'Translating…' : 'Translate with AI'}
              </button>
            ) : null}
          </div>
          <p className="small muted" style={{ margin: 0 }}>
            {canAi ? 'Both make' : 'It makes'} a draft in the chosen language with this {kind.noun}&apos;s categories and
            tags; nothing is published until you publish it.
          </p>
        </div>
      ) : null}
    </section>
  );
}
