import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Eye, Pencil, Plus, RefreshCw, Trash2 } from 'lucide-react';
import { useGetPostsQuery, type PostListFilter, type PostSummary } from '@/api/posts';
import { useCan, usePostRights } from '@/api/session';
import { useGetLanguagesQuery } from '@/api/translations';
import { Badge, StatusBadge } from '@/components/Badge';
import { DataTable, type Column } from '@/components/DataTable';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { RowMenu } from '@/components/RowMenu';
import { formatDate } from '@/lib/format';
import { DeletePostDialog } from '../components/DeletePostDialog';

export const POSTS_PAGE_SIZE = 10;

const FILTERS: { value: PostListFilter; label: string }[] = [
  { value: 'published', label: 'Published' },
  { value: 'draft', label: 'Drafts' },
  { value: 'all', label: 'All Posts' },
  { value: 'waiting', label: 'Waiting for review' },
];

/** The row's menu: View for everyone, Edit and Delete only where the role may. */
function PostActions({ post, onDelete }: { post: PostSummary; onDelete: () => void }) {
  const navigate = useNavigate();
  const rights = usePostRights(post);
  return (
    <RowMenu
      label={`Actions for ${post.title}`}
      items={[
        { label: 'View', icon: <Eye size={14} />, onSelect: () => navigate(`/dashboard/posts/${post.slug}`) },
        ...(rights.edit
          ? [{ label: 'Edit', icon: <Pencil size={14} />, onSelect: () => navigate(`/dashboard/posts/edit/${post.id}`) }]
          : []),
        ...(rights.remove ? [{ label: 'Delete', icon: <Trash2 size={14} />, danger: true, onSelect: onDelete }] : []),
      ]}
    />
  );
}

function columns(status: PostListFilter, onDelete: (id: string) => void, multilingual: boolean): Column<PostSummary>[] {
  const language: Column<PostSummary>[] = multilingual
    ? [
        {
          header: 'Language',
          className: 'small',
          cell: (post) => (
            <Badge tone="primary">
              <span lang={post.language}>{post.language}</span>
            </Badge>
          ),
        },
      ]
    : [];
  return [
    ...language,
    {
      header: 'Title',
      primary: true,
      cell: (post) => (
        <>
          <div className="row wrap">
            <Link to={`/dashboard/posts/${post.slug}`}>
              <strong>{post.title}</strong>
            </Link>
            {status === 'all' ? <StatusBadge status={post.status} /> : null}
            {post.reviewRequestedAt ? <Badge tone="warning">Waiting for review</Badge> : null}
          </div>
          {post.excerpt ? <div className="small muted line-clamp-2">{post.excerpt}</div> : null}
        </>
      ),
    },
    {
      header: 'Categories',
      cell: (post) => (
        <div className="row wrap" style={{ gap: 4, display: 'inline-flex' }}>
          {(post.categories ?? []).map((c) => (
            <Badge key={c.id} tone="primary">
              {c.name}
            </Badge>
          ))}
        </div>
      ),
    },
    { header: 'Published', className: 'small', cell: (post) => formatDate(post.publishedAt) },
    {
      header: <span className="sr-only">Actions</span>,
      actions: true,
      width: 60,
      cell: (post) => <PostActions post={post} onDelete={() => onDelete(post.id)} />,
    },
  ];
}

export function PostsList() {
  const [params, setParams] = useSearchParams();
  const canCreate = useCan('post.create');
  const canReview = useCan('post.review');
  const filters = FILTERS.filter((f) => f.value !== 'waiting' || canReview);
  const status = (filters.find((f) => f.value === params.get('status'))?.value ?? 'published') as PostListFilter;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [deleting, setDeleting] = useState<string | null>(null);
  const languages = useGetLanguagesQuery();
  const codes = (languages.data?.languages ?? []).map((l) => l.code);
  const multilingual = codes.length > 1;
  const language = params.get('language') ?? '';
  const missing = params.get('missing') ?? '';
  const posts = useGetPostsQuery({
    page,
    limit: POSTS_PAGE_SIZE,
    status,
    ...(language ? { language } : {}),
    ...(missing ? { missing } : {}),
  });
  const { data, refetch } = posts;

  function update(next: { status?: PostListFilter; page?: number; language?: string; missing?: string }) {
    const s = next.status ?? status;
    const p = next.page ?? page;
    const q = new URLSearchParams();
    if (s !== 'published') q.set('status', s);
    if (p > 1) q.set('page', String(p));
    const lang = next.language ?? language;
    const miss = next.missing ?? missing;
    if (lang) q.set('language', lang);
    if (miss) q.set('missing', miss);
    setParams(q);
  }

  const addPost = (
    <Link className="btn btn-primary" to="/dashboard/posts/new">
      <Plus size={16} /> Add Post
    </Link>
  );
  return (
    <>
      <PageHeader
        title="Posts"
        description="Manage your blog posts"
        search="posts"
        searchPlaceholder="Search posts..."
        iconButton={{ icon: <RefreshCw size={16} />, label: 'Refresh', onClick: () => refetch() }}
        action={canCreate ? { label: 'Add Post', to: '/dashboard/posts/new', icon: <Plus size={16} /> } : undefined}
      />
      <section className="card">
        <div className="card-header">
          <div className="segmented" role="group" aria-label="Filter by status">
            {filters.map((f) => (
              <button key={f.value} type="button" aria-pressed={status === f.value} onClick={() => update({ status: f.value, page: 1 })}>
                {f.label}
              </button>
            ))}
          </div>
          {multilingual ? (
            <span className="row wrap" style={{ gap: 8 }}>
              <label className="small" htmlFor="posts-language">
                Language{' '}
                <select
                  id="posts-language"
                  className="select"
                  value={language}
                  onChange={(e) => update({ language: e.target.value, page: 1 })}
                >
                  <option value="">All</option>
                  {codes.map((code) => (
                    <option key={code} value={code}>
                      {code}
                    </option>
                  ))}
                </select>
              </label>
              <label className="small" htmlFor="posts-missing">
                Missing in{' '}
                <select
                  id="posts-missing"
                  className="select"
                  value={missing}
                  onChange={(e) => update({ missing: e.target.value, page: 1 })}
                >
                  <option value="">—</option>
                  {codes.map((code) => (
                    <option key={code} value={code}>
                      {code}
                    </option>
                  ))}
                </select>
              </label>
            </span>
          ) : null}
          {data ? (
            <span className="small muted">
              {data.totalPosts} {data.totalPosts === 1 ? 'post' : 'posts'}
            </span>
          ) : null}
        </div>
        <QueryState
          query={posts}
          loading="Loading posts..."
          error="Error loading posts"
          isEmpty={(d) => d.posts.length === 0}
          empty={
            status === 'waiting'
              ? 'No posts are waiting for review.'
              : canCreate
                ? 'No posts found. Create your first post!'
                : 'No posts found.'
          }
          emptyAction={canCreate && status !== 'waiting' ? addPost : undefined}
        >
          {(list) => (
            <DataTable
              rows={list.posts}
              rowKey={(post) => post.id}
              columns={columns(status, setDeleting, multilingual)}
              dimmed={posts.isFetching}
              pages={{ page, totalPages: list.totalPages, onChange: (p) => update({ page: p }) }}
            />
          )}
        </QueryState>
      </section>
      <DeletePostDialog
        postId={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={() => {
          if (data && data.posts.length === 1 && page > 1) update({ page: page - 1 });
        }}
        onGone={() => refetch()}
      />
    </>
  );
}
