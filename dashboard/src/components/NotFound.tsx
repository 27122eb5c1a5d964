import { Link } from 'react-router';

export function NotFound() {
  return (
    <main className="not-found">
      <div className="code">404</div>
      <h1>Oops! Page not found</h1>
      <p className="muted">The page you are looking for does not exist or has been moved.</p>
      <Link className="btn btn-primary" to="/">
        Return to Home
      </Link>
    </main>
  );
}
