import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Eye, Lock, Pencil, Plus, RefreshCw, Star, Trash2 } from 'lucide-react';
import { useGetPostsQuery, type PostListFilter, type PostSummary } from '@/api/posts';
import { useCan, usePostRights } from '@/api/session';
import { useGetLanguagesQuery } from '@/api/translations';
import { Badge, StatusBadge } from '@/components/Badge';
import { DataTable, type Column } from '@/components/DataTable';
import { ListSearch } from '@/components/ListSearch';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { RowMenu } from '@/components/RowMenu';
import { formatDate } from '@/lib/format';
import { DeletePostDialog } from '../components/DeletePostDialog';
import { useKind, type ContentKind } from '../kinds';

export const POSTS_PAGE_SIZE = 10;

const filtersOf = (kind: ContentKind): { value: PostListFilter; label: string }[] => [
  { value: 'published', label: 'Published' },
  { value: 'draft', label: 'Drafts' },
  { value: 'all', label: `All ${kind.Plural}` },
  { value: 'waiting', label: 'Waiting for review' },
];

/** The row's menu: View for everyone, Edit and Delete only where the role may (a page's View is its
 * editor, read only for a role that may not change it). */
function PostActions({ post, onDelete }: { post: PostSummary; onDelete: () => void }) {
  const navigate = useNavigate();
  const kind = useKind();
  const rights = usePostRights(post);
  const view = kind.view(post);
  return (
    <RowMenu
      label={`Actions for ${post.title}`}
      items={[
        ...(view !== kind.edit(post.id) || !rights.edit
          ? [{ label: 'View', icon: <Eye size={14} />, onSelect: () => navigate(view) }]
          : []),
        ...(rights.edit
          ? [{ label: 'Edit', icon: <Pencil size={14} />, onSelect: () => navigate(kind.edit(post.id)) }]
          : []),
        ...(rights.remove ? [{ label: 'Delete', icon: <Trash2 size={14} />, danger: true, onSelect: onDelete }] : []),
      ]}
    />
  );
}

function columns(
  kind: ContentKind,
  status: PostListFilter,
  onDelete: (id: string) => void,
  multilingual: boolean,
): Column<PostSummary>[] {
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
            <Link to={kind.view(post)}>
              <strong>{post.title}</strong>
            </Link>
            {post.featured ? (
              <Badge tone="warning">
                <Star size={12} aria-hidden="true" fill="currentColor" style={{ marginRight: 4 }} />
                Featured
              </Badge>
            ) : null}
            {post.visibility === 'members' ? (
              <Badge tone="primary">
                <Lock size={12} aria-hidden="true" style={{ marginRight: 4 }} />
                Members only
              </Badge>
            ) : null}
            {status === 'all' ? <StatusBadge status={post.status} /> : null}
            {post.reviewRequestedAt ? <Badge tone="warning">Waiting for review</Badge> : null}
          </div>
          {post.excerpt ? <div className="small muted line-clamp-2">{post.excerpt}</div> : null}
        </>
      ),
    },
    ...(kind.categories
      ? [
          {
            header: 'Categories',
            cell: (post: PostSummary) => (
              <div className="row wrap" style={{ gap: 4, display: 'inline-flex' }}>
                {(post.categories ?? []).map((c) => (
                  <Badge key={c.id} tone="primary">
                    {c.name}
                  </Badge>
                ))}
              </div>
            ),
          },
        ]
      : []),
    { header: 'Published', className: 'small', cell: (post) => formatDate(post.publishedAt) },
    {
      header: <span className="sr-only">Actions</span>,
      actions: true,
      width: 60,
      cell: (post) => <PostActions post={post} onDelete={() => onDelete(post.id)} />,
    },
  ];
}

/** The posts (or, mounted for pages, the pages): status filters, languages, the rows and their pages. */
export function PostsList() {
  const kind = useKind();
  const [params, setParams] = useSearchParams();
  const canCreate = useCan('post.create');
  const canReview = useCan('post.review');
  const filters = filtersOf(kind).filter((f) => f.value !== 'waiting' || canReview);
  const status = (filters.find((f) => f.value === params.get('status'))?.value ?? 'published') as PostListFilter;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [deleting, setDeleting] = useState<string | null>(null);
  const languages = useGetLanguagesQuery();
  const codes = (languages.data?.languages ?? []).map((l) => l.code);
  const multilingual = codes.length > 1;
  const language = params.get('language') ?? '';
  const missing = params.get('missing') ?? '';
  const search = kind.headerSearch ? '' : (params.get('q') ?? '');
  const posts = useGetPostsQuery({
    page,
    limit: POSTS_PAGE_SIZE,
    status,
    ...(language ? { language } : {}),
    ...(missing ? { missing } : {}),
    ...(search ? { search } : {}),
    ...(kind.api === 'posts' ? {} : { kind: kind.api }),
  });
  const { data, refetch } = posts;

  function update(next: { status?: PostListFilter; page?: number; language?: string; missing?: string; search?: string }) {
    const s = next.status ?? status;
    const p = next.page ?? page;
    const q = new URLSearchParams();
    if (s !== 'published') q.set('status', s);
    if (p > 1) q.set('page', String(p));
    const lang = next.language ?? language;
    const miss = next.missing ?? missing;
    if (lang) q.set('language', lang);
    if (miss) q.set('missing', miss);
    const text = next.search ?? search;
    if (text) q.set('q', text);
    setParams(q);
  }

  const addLabel = `Add ${kind.Noun}`;
  const addPost = (
    <Link className="btn btn-primary" to={kind.create}>
      <Plus size={16} /> {addLabel}
    </Link>
  );
  const noun = (n: number) => (n === 1 ? kind.noun : kind.plural);
  return (
    <>
      <PageHeader
        title={kind.Plural}
        description={kind.description}
        search={kind.headerSearch ? 'posts' : false}
        searchPlaceholder="Search posts..."
        iconButton={{ icon: <RefreshCw size={16} />, label: 'Refresh', onClick: () => refetch() }}
        action={canCreate ? { label: addLabel, to: kind.create, icon: <Plus size={16} /> } : undefined}
      />
      <section className="card">
        <div className="card-header">
          {kind.headerSearch ? null : (
            <ListSearch value={search} label={`Search ${kind.plural}`} onChange={(text) => update({ search: text, page: 1 })} />
          )}
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
              {data.totalPosts} {noun(data.totalPosts)}
            </span>
          ) : null}
        </div>
        <QueryState
          query={posts}
          loading={`Loading ${kind.plural}...`}
          error={`Error loading ${kind.plural}`}
          isEmpty={(d) => d.posts.length === 0}
          empty={
            status === 'waiting'
              ? `No ${kind.plural} are waiting for review.`
              : search
                ? `No ${kind.plural} match "${search}".`
                : canCreate
                  ? `No ${kind.plural} found. Create your first ${kind.noun}!`
                  : `No ${kind.plural} found.`
          }
          emptyAction={canCreate && status !== 'waiting' && !search ? addPost : undefined}
        >
          {(list) => (
            <DataTable
              rows={list.posts}
              rowKey={(post) => post.id}
              columns={columns(kind, status, setDeleting, multilingual)}
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
