import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { toast } from 'sonner';
import { useCreateTermMutation, useGetTermQuery, useUpdateTermMutation, type TermBody } from '@/api/terms';
import { LoadingState } from '@/components/LoadingState';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { errorMessage, isApiError } from '@/lib/errors';
import { capitalize } from '@/lib/format';
import { TermForm, type TermValues } from '../components/TermForm';
import { CATEGORY, TAG, type TermScreens } from '../kinds';

/** The body sent: a category's description when given (on update always, so it can be cleared). */
function bodyOf(v: TermValues, screens: TermScreens, update: boolean): TermBody {
  const body: TermBody = { name: v.name.trim(), slug: v.slug.trim() };
  const description = v.description.trim();
  if (screens.withDescription && (update || description)) body.description = description;
  return body;
}

/** Save, toast the outcome and go back to the list. */
function useSave(screens: TermScreens, verb: 'create' | 'update', save: (body: TermBody) => Promise<{ message?: string }>) {
  const navigate = useNavigate();
  return async (v: TermValues) => {
    try {
      const reply = await save(bodyOf(v, screens, verb === 'update'));
      toast.success(reply?.message || `${capitalize(screens.one)} ${verb}d successfully`);
      navigate(screens.path);
    } catch (err) {
      toast.error(errorMessage(err, `Failed to ${verb} ${screens.one}`));
    }
  };
}

function TermCreate({ screens }: { screens: TermScreens }) {
  const [create] = useCreateTermMutation();
  const onSubmit = useSave(screens, 'create', (body) => create({ kind: screens.kind, body }).unwrap());
  return (
    <>
      <PageHeader title={screens.createTitle} description={screens.createDescription} search={false} />
      <TermForm
        defaultValues={{ name: '', slug: '', description: '' }}
        withDescription={screens.withDescription}
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
            defaultValues={{ name: term.name, slug: term.slug, description: 'description' in term ? term.description : '' }}
            withDescription={screens.withDescription}
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
