import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { PageHeader } from '@/components/PageHeader';
import { TermForm, type TermValues } from '@/components/TermForm';
import { LoadingState } from '@/components/ui';
import { useCreateTermMutation, useGetTermQuery, useUpdateTermMutation } from '@/api/terms';
import { errorMessage } from '@/lib/errors';

function body(v: TermValues) {
  const description = v.description.trim();
  return { name: v.name.trim(), slug: v.slug.trim(), ...(description ? { description } : {}) };
}

export function CategoryCreate() {
  const navigate = useNavigate();
  const [create] = useCreateTermMutation();
  return (
    <>
      <PageHeader title="Create Category" description="Add a new category for your posts" search={false} />
      <TermForm
        defaultValues={{ name: '', slug: '', description: '' }}
        withDescription
        submitLabel="Create Category"
        cancelTo="/dashboard/categories"
        onSubmit={async (v) => {
          try {
            const reply = await create({ kind: 'category', body: body(v) }).unwrap();
            toast.success(reply?.message || 'Category created successfully');
            navigate('/dashboard/categories');
          } catch (err) {
            toast.error(errorMessage(err, 'Failed to create category'));
          }
        }}
      />
    </>
  );
}

export function CategoryEdit() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { data, isLoading, isError } = useGetTermQuery({ kind: 'category', id }, { skip: !id });
  const [update] = useUpdateTermMutation();

  // A category that cannot be loaded: report it and go back to the list.
  useEffect(() => {
    if (isError) {
      toast.error('Failed to load category.');
      navigate('/dashboard/categories', { replace: true });
    }
  }, [isError, navigate]);

  if (isLoading || !data) return <LoadingState label="Loading category..." />;
  return (
    <>
      <PageHeader title={`Edit Category: ${data.name}`} description="Update the category" search={false} />
      <TermForm
        key={data.id}
        defaultValues={{ name: data.name, slug: data.slug, description: 'description' in data ? data.description : '' }}
        withDescription
        submitLabel="Update Category"
        cancelTo="/dashboard/categories"
        onSubmit={async (v) => {
          try {
            const reply = await update({ kind: 'category', id, body: { ...body(v), description: v.description.trim() } }).unwrap();
            toast.success(reply?.message || 'Category updated successfully');
            navigate('/dashboard/categories');
          } catch (err) {
            toast.error(errorMessage(err, 'Failed to update category'));
          }
        }}
      />
    </>
  );
}
