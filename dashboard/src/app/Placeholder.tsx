import { PageHeader } from '@/components/PageHeader';

/** Screens of the route map that are not built yet. */
export function Placeholder({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <div className="card card-body muted">This section is not available yet.</div>
    </>
  );
}
