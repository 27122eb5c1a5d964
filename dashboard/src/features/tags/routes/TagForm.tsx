import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { toast } from 'sonner';
import { PageHeader } from '@/components/PageHeader';
import { TermForm, type TermValues } from '@/components/TermForm';
import { LoadingState } from '@/components/ui';
import { useCreateTermMutation, useGetTermQuery, useUpdateTermMutation } from '@/api/terms';
import { errorMessage, isApiError } from '@/lib/errors';

const body = (v: TermValues) => ({ name: v.name.trim(), slug: v.slug.trim() });

export function TagCreate() {
  const navigate = useNavigate();
  const [create] = useCreateTermMutation();
  return (
    <>
      <PageHeader title="Create New Tag" description="Add a tag to label your posts" search={false} />
      <TermForm
        defaultValues={{ name: '', slug: '', description: '' }}
        withDescription={false}
        submitLabel="Create Tag"
        cancelTo="/dashboard/tags"
        onSubmit={async (v) => {
          try {
            const reply = await create({ kind: 'tag', body: body(v) }).unwrap();
            toast.success(reply?.message || 'Tag created successfully');
            navigate('/dashboard/tags');
          } catch (err) {
            toast.error(errorMessage(err, 'Failed to create tag'));
          }
        }}
      />
    </>
  );
}

export function TagEdit() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { data, isLoading, isError, error } = useGetTermQuery({ kind: 'tag', id }, { skip: !id });
  const [update] = useUpdateTermMutation();
  const notFound = isError && isApiError(error) && error.status === 404;

  // Other load failures: report and go back to the list.
  useEffect(() => {
    if (isError && !notFound) {
      toast.error('Failed to load tag.');
      navigate('/dashboard/tags', { replace: true });
    }
  }, [isError, notFound, navigate]);

  if (notFound) {
    return (
      <section className="card state">
        <h1 style={{ color: 'var(--text)' }}>Tag Not Found</h1>
        <p>The tag you are looking for does not exist or has been deleted.</p>
        <Link className="btn btn-primary" to="/dashboard/tags">
          <ArrowLeft size={16} /> Back to Tags
        </Link>
      </section>
    );
  }
  if (isLoading || !data) return <LoadingState label="Loading tag..." />;
  return (
    <>
      <PageHeader title={`Edit Tag: ${data.name}`} description="Update the tag" search={false} />
      <TermForm
        key={data.id}
        defaultValues={{ name: data.name, slug: data.slug, description: '' }}
        withDescription={false}
        submitLabel="Update Tag"
        cancelTo="/dashboard/tags"
        onSubmit={async (v) => {
          try {
            const reply = await update({ kind: 'tag', id, body: body(v) }).unwrap();
            toast.success(reply?.message || 'Tag updated successfully');
            navigate('/dashboard/tags');
          } catch (err) {
            toast.error(errorMessage(err, 'Failed to update tag'));
          }
        }}
      />
    </>
  );
}
