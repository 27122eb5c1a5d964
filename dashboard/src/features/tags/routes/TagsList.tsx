import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Pencil, Plus, RefreshCw, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { PageHeader } from '@/components/PageHeader';
import { Pagination } from '@/components/Pagination';
import { RowMenu } from '@/components/RowMenu';
import { ConfirmDialog, EmptyState, ErrorState, LoadingState } from '@/components/ui';
import { useCan } from '@/api/session';
import { useDeleteTermMutation, useGetTagsQuery, type Tag } from '@/api/terms';
import { tagDeleteError, tagInUseMessage } from '@/lib/taxonomyErrors';

export const TAGS_PAGE_SIZE = 10;

export function TagsList() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const { data, isLoading, isError, isFetching, refetch } = useGetTagsQuery({ page, limit: TAGS_PAGE_SIZE });
  const [deleteTag, { isLoading: deleting }] = useDeleteTermMutation();
  const canCreate = useCan('taxonomy.create');
  const canManage = useCan('taxonomy.manage');
  const [confirming, setConfirming] = useState<Tag | null>(null);

  useEffect(() => {
    if (isError) toast.error('Error loading tags');
  }, [isError]);

  const goTo = (p: number) => setParams(p > 1 ? { page: String(p) } : {});

  function askDelete(tag: Tag) {
    const count = tag.postCount ?? 0;
    if (count > 0) {
      toast.error(tagInUseMessage(tag.name, count));
      return;
    }
    setConfirming(tag);
  }

  async function confirmDelete() {
    if (!confirming) return;
    const lastOnPage = (data?.tags.length ?? 0) === 1;
    try {
      const reply = await deleteTag({ kind: 'tag', id: confirming.id }).unwrap();
      toast.success(reply?.message || 'Tag deleted successfully');
      // The list reloads; when the last tag of a page above 1 went, show the page before.
      if (lastOnPage && page > 1) goTo(page - 1);
    } catch (err) {
      toast.error(tagDeleteError(err));
    } finally {
      setConfirming(null);
    }
  }

  const tags = data?.tags ?? [];
  const totalPages = data?.pagination.totalPages ?? 1;

  return (
    <>
      <PageHeader
        title="Tags"
        description="Label your posts with tags"
        search="tags"
        searchPlaceholder="Search tags..."
        iconButton={{ icon: <RefreshCw size={16} />, label: 'Refresh', onClick: () => refetch() }}
        action={canCreate ? { label: 'Add Tag', to: '/dashboard/tags/new', icon: <Plus size={16} /> } : undefined}
      />
      <section className="card">
        {isLoading ? (
          <LoadingState label="Loading tags..." />
        ) : isError ? (
          <ErrorState title="Failed to load tags. Please try again." onRetry={() => refetch()} />
        ) : tags.length === 0 ? (
          <EmptyState
            action={
              canCreate ? (
                <Link className="btn btn-primary" to="/dashboard/tags/new">
                  <Plus size={16} /> Add Tag
                </Link>
              ) : undefined
            }
          >
            No tags found. Create your first tag!
          </EmptyState>
        ) : (
          <>
            <div className="table-wrap" style={{ opacity: isFetching ? 0.6 : 1 }}>
              <table className="table stack-table">
                <thead>
                  <tr>
                    <th>Name</th>
                    <th>Slug</th>
                    <th>Posts</th>
                    <th style={{ width: 80 }}>Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {tags.map((t) => (
                    <tr key={t.id}>
                      <td className="cell-primary">
                        <strong>{t.name}</strong>
                      </td>
                      <td className="muted" data-label="Slug">{t.slug}</td>
                      <td data-label="Posts">{t.postCount ?? 0}</td>
                      <td className="cell-actions">
                        {canManage ? (
                          <RowMenu
                            label={`Actions for ${t.name}`}
                            items={[
                              { label: 'Edit', icon: <Pencil size={14} />, onSelect: () => navigate(`/dashboard/tags/edit/${t.id}`) },
                              { label: 'Delete', icon: <Trash2 size={14} />, danger: true, onSelect: () => askDelete(t) },
                            ]}
                          />
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pagination page={page} totalPages={totalPages} onChange={goTo} />
          </>
        )}
      </section>
      <ConfirmDialog open={!!confirming} title="Delete tag" busy={deleting} onCancel={() => setConfirming(null)} onConfirm={confirmDelete}>
        <p style={{ margin: 0 }}>
          Are you sure you want to delete the tag <strong>{confirming?.name}</strong>? It will be removed from all posts. This
          action cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
