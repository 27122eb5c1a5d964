import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Pencil, Plus, RefreshCw, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { PageHeader } from '@/components/PageHeader';
import { Pagination } from '@/components/Pagination';
import { ConfirmDialog, EmptyState, ErrorState, LoadingState } from '@/components/ui';
import { useCan } from '@/api/session';
import { useDeleteTermMutation, useGetCategoriesQuery, type Category } from '@/api/terms';
import { categoryDeleteError, categoryInUseMessage } from '@/lib/taxonomyErrors';

export const CATEGORIES_PAGE_SIZE = 5;

export function CategoriesList() {
  const navigate = useNavigate();
  const { data, isLoading, isError, refetch } = useGetCategoriesQuery();
  const [deleteCategory, { isLoading: deleting }] = useDeleteTermMutation();
  const canCreate = useCan('taxonomy.create');
  const canManage = useCan('taxonomy.manage');
  const [page, setPage] = useState(1);
  const [confirming, setConfirming] = useState<Category | null>(null);

  const categories = data ?? [];
  const totalPages = Math.max(1, Math.ceil(categories.length / CATEGORIES_PAGE_SIZE));
  const current = Math.min(page, totalPages);
  const rows = categories.slice((current - 1) * CATEGORIES_PAGE_SIZE, current * CATEGORIES_PAGE_SIZE);

  function askDelete(category: Category) {
    const count = category.postCount ?? 0;
    if (count > 0) {
      toast.error(categoryInUseMessage(category.name, count));
      return;
    }
    setConfirming(category);
  }

  async function confirmDelete() {
    if (!confirming) return;
    try {
      const reply = await deleteCategory({ kind: 'category', id: confirming.id }).unwrap();
      toast.success(reply?.message || 'Category deleted successfully');
    } catch (err) {
      toast.error(categoryDeleteError(err));
    } finally {
      setConfirming(null);
    }
  }

  return (
    <>
      <PageHeader
        title="Categories"
        description="Organise your posts into categories"
        search="categories"
        searchPlaceholder="Search categories..."
        iconButton={{ icon: <RefreshCw size={16} />, label: 'Refresh', onClick: () => refetch() }}
        action={canCreate ? { label: 'Add Category', to: '/dashboard/categories/new', icon: <Plus size={16} /> } : undefined}
      />
      <section className="card">
        {isLoading ? (
          <LoadingState label="Loading categories..." />
        ) : isError ? (
          <ErrorState title="Failed to load categories" onRetry={() => refetch()} />
        ) : categories.length === 0 ? (
          <EmptyState
            action={
              canCreate ? (
                <Link className="btn btn-primary" to="/dashboard/categories/new">
                  <Plus size={16} /> Add Category
                </Link>
              ) : undefined
            }
          >
            No categories found. Create your first category!
          </EmptyState>
        ) : (
          <>
            <div className="table-wrap">
              <table className="table stack-table">
                <thead>
                  <tr>
                    <th>Name</th>
                    <th>Slug</th>
                    <th>Description</th>
                    <th>Posts</th>
                    <th style={{ width: 110 }}>Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((c) => (
                    <tr key={c.id}>
                      <td className="cell-primary">
                        <strong>{c.name}</strong>
                      </td>
                      <td className="muted" data-label="Slug">{c.slug}</td>
                      <td className="muted" data-label="Description">{c.description || '—'}</td>
                      <td data-label="Posts">{c.postCount ?? 0}</td>
                      <td className="cell-actions">
                        {canManage ? (
                        <div className="row" style={{ gap: 2 }}>
                          <button
                            type="button"
                            className="btn btn-ghost btn-icon"
                            aria-label={`Edit ${c.name}`}
                            onClick={() => navigate(`/dashboard/categories/edit/${c.id}`)}
                          >
                            <Pencil size={16} />
                          </button>
                          <button type="button" className="btn btn-ghost btn-icon" aria-label={`Delete ${c.name}`} onClick={() => askDelete(c)}>
                            <Trash2 size={16} />
                          </button>
                        </div>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pagination page={current} totalPages={totalPages} onChange={setPage} />
          </>
        )}
      </section>
      <ConfirmDialog
        open={!!confirming}
        title="Delete category"
        busy={deleting}
        onCancel={() => setConfirming(null)}
        onConfirm={confirmDelete}
      >
        <p style={{ margin: 0 }}>
          Are you sure you want to delete the category <strong>{confirming?.name}</strong>? This action cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
