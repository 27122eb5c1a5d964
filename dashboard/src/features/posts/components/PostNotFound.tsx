import { Link } from 'react-router';
import { ArrowLeft, FileX } from 'lucide-react';
import { useKind } from '../kinds';

export function PostNotFound({ message }: { message?: string }) {
  const kind = useKind();
  return (
    <section className="card state">
      <FileX size={40} aria-hidden="true" />
      <h1 style={{ color: 'var(--text)' }}>{kind.Noun} Not Found</h1>
      <p>{message || `The ${kind.noun} you're looking for doesn't exist or has been removed.`}</p>
      <Link className="btn btn-primary" to={kind.list}>
        <ArrowLeft size={16} /> Back to {kind.Plural}
      </Link>
    </section>
  );
}
