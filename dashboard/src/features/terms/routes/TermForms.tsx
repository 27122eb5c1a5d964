import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { toast } from 'sonner';
import { useCreateTermMutation, useGetTermQuery, useUpdateTermMutation, type Term, type TermBody } from '@/api/terms';
import { useOtherLanguages, type Language } from '@/api/translations';
import { LoadingState } from '@/components/LoadingState';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { toastError } from '@/components/notify';
import { isApiError } from '@/lib/errors';
import { capitalize } from '@/lib/format';
import { TermForm, type TermValues } from '../components/TermForm';
import { CATEGORY, TAG, type TermScreens } from '../kinds';

/** The body sent: a category's description when given (on update always, so it can be cleared);
 * in a company with several languages, the names given per language (on update always: the map
 * sent replaces the term's, so an emptied name removes that language). */
function bodyOf(v: TermValues, screens: TermScreens, update: boolean, languages: Language[]): TermBody {
  const body: TermBody = { name: v.name.trim(), slug: v.slug.trim() };
  const description = v.description.trim();
  if (screens.withDescription && (update || description)) body.description = description;
  const translations: NonNullable<TermBody['translations']> = {};
  for (const { code } of languages) {
    const name = v.translations[code]?.name.trim() ?? '';
    const slug = v.translations[code]?.slug.trim() ?? '';
    if (name) translations[code] = slug ? { name, slug } : { name };
  }
  if (languages.length > 0 && (update || Object.keys(translations).length > 0)) body.translations = translations;
  return body;
}

/** The form's values of a term (or of a new one). */
function valuesOf(term?: Term): TermValues {
  const translations: TermValues['translations'] = {};
  for (const [code, t] of Object.entries(term?.translations ?? {})) translations[code] = { name: t.name, slug: t.slug };
  return {
    name: term?.name ?? '',
    slug: term?.slug ?? '',
    description: term && 'description' in term ? term.description : '',
    translations,
  };
}

/** Save, toast the outcome and go back to the list. */
function useSave(screens: TermScreens, verb: 'create' | 'update', save: (body: TermBody) => Promise<{ message?: string }>) {
  const navigate = useNavigate();
  const { others } = useOtherLanguages();
  return async (v: TermValues) => {
    try {
      const reply = await save(bodyOf(v, screens, verb === 'update', others));
      toast.success(reply?.message || `${capitalize(screens.one)} ${verb}d successfully`);
      navigate(screens.path);
    } catch (err) {
      toastError(err, `Failed to ${verb} ${screens.one}`);
    }
  };
}

function TermCreate({ screens }: { screens: TermScreens }) {
  const [create] = useCreateTermMutation();
  const onSubmit = useSave(screens, 'create', (body) => create({ kind: screens.kind, body }).unwrap());
  const { others } = useOtherLanguages();
  return (
    <>
      <PageHeader title={screens.createTitle} description={screens.createDescription} search={false} />
      <TermForm
        defaultValues={valuesOf()}
        withDescription={screens.withDescription}
        languages={others}
        submitLabel={`Create ${capitalize(screens.one)}`}
        cancelTo={screens.path}
        onSubmit={onSubmit}
      />
    </>
  );
}

function NotFound({ screens }: { screens: TermScreens }) {
  return (
    <section className="card state">
      <h1 style={{ color: 'var(--text)' }}>{capitalize(screens.one)} Not Found</h1>
      <p>The {screens.one} you are looking for does not exist or has been deleted.</p>
      <Link className="btn btn-primary" to={screens.path}>
        <ArrowLeft size={16} /> Back to {capitalize(screens.many)}
      </Link>
    </section>
  );
}

function TermEdit({ screens }: { screens: TermScreens }) {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const query = useGetTermQuery({ kind: screens.kind, id }, { skip: !id });
  const [update] = useUpdateTermMutation();
  const onSubmit = useSave(screens, 'update', (body) => update({ kind: screens.kind, id, body }).unwrap());
  const { others } = useOtherLanguages();
  const notFound = screens.notFoundScreen && query.isError && isApiError(query.error) && query.error.status === 404;
  const loading = `Loading ${screens.one}...`;

  // A term that cannot be loaded (or, for tags, fails other than "not found"): say so, back to the list.
  useEffect(() => {
    if (query.isError && !notFound) {
      toast.error(`Failed to load ${screens.one}.`);
      navigate(screens.path, { replace: true });
    }
  }, [query.isError, notFound, navigate, screens]);

  return (
    <QueryState query={query} loading={loading} failed={notFound ? <NotFound screens={screens} /> : <LoadingState label={loading} />}>
      {(term) => (
        <>
          <PageHeader title={`Edit ${capitalize(screens.one)}: ${term.name}`} description={`Update the ${screens.one}`} search={false} />
          <TermForm
            key={term.id}
            defaultValues={valuesOf(term)}
            withDescription={screens.withDescription}
            languages={others}
            submitLabel={`Update ${capitalize(screens.one)}`}
            cancelTo={screens.path}
            onSubmit={onSubmit}
          />
        </>
      )}
    </QueryState>
  );
}

export const CategoryCreate = () => <TermCreate screens={CATEGORY} />;
export const CategoryEdit = () => <TermEdit screens={CATEGORY} />;
export const TagCreate = () => <TermCreate screens={TAG} />;
export const TagEdit = () => <TermEdit screens={TAG} />;
