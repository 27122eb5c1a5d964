import { Link, useParams } from 'react-router';
import { ArrowLeft, Calendar, Pencil, User } from 'lucide-react';
import { useGetPostBySlugQuery, type PostBySlug } from '@/api/posts';
import { usePostRights } from '@/api/session';
import { Badge, StatusBadge } from '@/components/Badge';
import { QueryState } from '@/components/QueryState';
import { formatDate, formatDateTime } from '@/lib/format';
import { PostNotFound } from '../components/PostNotFound';

/** /dashboard/posts/{slug}: a post as readers see it, with its details. */
export function PostDetail() {
  const { slug = '' } = useParams();
  const post = useGetPostBySlugQuery(slug, { skip: !slug });
  return (
    <QueryState query={post} loading="Loading post..." failed={<PostNotFound />}>
      {(data) => (data.id ? <PostArticle post={data} /> : <PostNotFound />)}
    </QueryState>
  );
}

function PostArticle({ post }: { post: PostBySlug }) {
  const rights = usePostRights(post);
  const image = post.featuredImage?.link;
  return (
    <article className="stack" style={{ gap: 20 }}>
      <div className="row-between wrap">
        <Link className="btn btn-secondary" to="/dashboard/posts">
          <ArrowLeft size={16} /> Back to Posts
        </Link>
        {rights.edit ? (
          <Link className="btn btn-primary" to={`/dashboard/posts/edit/${post.id}`}>
            <Pencil size={16} /> Edit Post
          </Link>
        ) : null}
      </div>
      <section className="card card-body stack">
        <div className="row wrap">
          <StatusBadge status={post.status} />
          {(post.categories ?? []).map((c) => (
            <Badge key={c.id} tone="primary">
              {c.name}
            </Badge>
          ))}
        </div>
        <h1 style={{ fontSize: 30 }}>{post.title}</h1>
        <div className="row wrap small muted" style={{ gap: 16 }}>
          <span className="row">
            <Calendar size={14} aria-hidden="true" /> Published on {formatDate(post.publishedAt)}
          </span>
          <span className="row">
            <User size={14} aria-hidden="true" /> {post.author?.username ?? 'Unknown'}
          </span>
        </div>
        {image ? <img className="detail-image" src={image} alt={post.featuredImage?.altText || post.title} /> : null}
        {post.excerpt ? <p className="muted" style={{ fontSize: 17, margin: 0 }}>{post.excerpt}</p> : null}
        {post.videoId ? (
          <div style={{ aspectRatio: '16/9', maxWidth: 720 }}>
            <iframe
              title="YouTube video"
              src={`https://www.youtube-nocookie.com/embed/${post.videoId}`}
              style={{ width: '100%', height: '100%', border: 0, borderRadius: 8 }}
              allowFullScreen
            />
          </div>
        ) : null}
        <div className="prose" dangerouslySetInnerHTML={{ __html: post.content ?? '' }} />
      </section>
      <section className="card card-body stack">
        <div>
          <h2 className="card-title" style={{ marginBottom: 8 }}>Tags</h2>
          <div className="row wrap" style={{ gap: 4 }}>
            {(post.tags ?? []).length ? (
              post.tags!.map((t) => <Badge key={t.id}>#{t.name}</Badge>)
            ) : (
              <span className="muted small">No tags</span>
            )}
          </div>
        </div>
        <dl className="grid-2 small" style={{ margin: 0 }}>
          <div>
            <dt className="muted">Created</dt>
            <dd style={{ margin: 0 }}>{formatDateTime(post.createdAt)}</dd>
          </div>
          <div>
            <dt className="muted">Published</dt>
            <dd style={{ margin: 0 }}>{formatDateTime(post.publishedAt)}</dd>
          </div>
          {post.canonicalUrl ? (
            <div>
              <dt className="muted">Canonical URL</dt>
              <dd style={{ margin: 0 }}>
                <a href={post.canonicalUrl} target="_blank" rel="noreferrer">
                  {post.canonicalUrl}
                </a>
              </dd>
            </div>
          ) : null}
        </dl>
      </section>
    </article>
  );
}
