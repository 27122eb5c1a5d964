import { Link } from 'react-router';
import { ArrowLeft, FileX } from 'lucide-react';

export function PostNotFound({ message }: { message?: string }) {
  return (
    <section className="card state">
      <FileX size={40} aria-hidden="true" />
      <h1 style={{ color: 'var(--text)' }}>Post Not Found</h1>
      <p>{message || "The post you're looking for doesn't exist or has been removed."}</p>
      <Link className="btn btn-primary" to="/dashboard/posts">
        <ArrowLeft size={16} /> Back to Posts
      </Link>
    </section>
  );
}
