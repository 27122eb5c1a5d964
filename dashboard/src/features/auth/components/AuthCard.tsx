import type { ReactNode } from 'react';
import { Newspaper } from 'lucide-react';

export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <main className="auth-page">
      <section className="card auth-card">
        <div className="auth-brand">
          <Newspaper size={22} aria-hidden="true" /> Headless CMS
        </div>
        <h1>{title}</h1>
        {subtitle ? <p className="muted" style={{ marginTop: 0 }}>{subtitle}</p> : null}
        {children}
      </section>
    </main>
  );
}
