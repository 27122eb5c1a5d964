import { useEffect } from 'react';
import type { PlanLimit, UsageDay } from '@/api/usage';
import { useGetUsageQuery } from '@/api/usage';
import { useCan } from '@/api/session';
import { Badge } from '@/components/Badge';
import { Card } from '@/components/Card';
import { QueryState } from '@/components/QueryState';
import { formatDate, formatFileSize, formatNumber } from '@/lib/format';

const DAYS = 30;

const LIMIT_LABELS: Record<string, string> = {
  staff_seats: 'Staff accounts',
  posts: 'Posts',
  media_bytes: 'Media storage',
  webhook_endpoints: 'Webhook endpoints',
};

function amount(limit: string, value: number): string {
  return limit === 'media_bytes' ? formatFileSize(value) : formatNumber(value);
}

function LimitRow({ row }: { row: PlanLimit }) {
  const label = LIMIT_LABELS[row.limit] ?? row.limit;
  const allowed = row.allowed;
  const share = allowed ? Math.min(1, row.used / allowed) : 0;
  const full = allowed !== null && row.used >= allowed;
  return (
    <div>
      <div className="row" style={{ justifyContent: 'space-between', gap: 8, flexWrap: 'wrap' }}>
        <span>{label}</span>
        <span className="muted">
          {amount(row.limit, row.used)} of {allowed === null ? 'unlimited' : amount(row.limit, allowed)}
          {full ? (
            <>
              {' '}
              <Badge tone="warning">Limit reached</Badge>
            </>
          ) : null}
        </span>
      </div>
      {allowed !== null ? (
        <div
          className="progress"
          role="progressbar"
          aria-label={`${label} used`}
          aria-valuemin={0}
          aria-valuemax={allowed}
          aria-valuenow={Math.min(row.used, allowed)}
          style={{ marginTop: 6 }}
        >
          <span style={{ width: `${Math.round(share * 100)}%`, background: full ? 'var(--danger)' : undefined }} />
        </div>
      ) : null}
    </div>
  );
}

/** Public API requests per day as bars (an SVG scaled to the card's width), with a text summary. */
function RequestsChart({ days }: { days: UsageDay[] }) {
  const highest = Math.max(1, ...days.map((day) => day.apiRequests));
  const total = days.reduce((sum, day) => sum + day.apiRequests, 0);
  const width = 100 / days.length;
  return (
    <figure style={{ margin: 0 }}>
      <svg
        viewBox="0 0 100 40"
        preserveAspectRatio="none"
        role="img"
        aria-label={`Public API requests per day, last ${days.length} days: ${formatNumber(total)} in all`}
        style={{ width: '100%', height: 120, display: 'block' }}
      >
        {days.map((day, index) => {
          const height = (day.apiRequests / highest) * 38;
          return (
            <rect
              key={day.day}
              x={index * width + width * 0.1}
              y={40 - height}
              width={width * 0.8}
              height={height}
              fill="var(--primary)"
            >
              <title>
                {formatDate(day.day)}: {formatNumber(day.apiRequests)} requests
              </title>
            </rect>
          );
        })}
      </svg>
      <figcaption className="muted" style={{ display: 'flex', justifyContent: 'space-between', fontSize: 13 }}>
        <span>{days.length ? formatDate(days[0].day) : ''}</span>
        <span>
          {formatNumber(total)} requests, {formatNumber(days.reduce((sum, day) => sum + day.aiJobs, 0))} AI jobs,{' '}
          {formatNumber(days.reduce((sum, day) => sum + day.emails, 0))} emails
        </span>
        <span>{days.length ? formatDate(days[days.length - 1].day) : ''}</span>
      </figcaption>
    </figure>
  );
}

/** Settings → Usage (admins): the plan, each limit with what the company uses, and its public API
 *  requests per day. */
export function UsageCard({ arrivedAt = false }: { arrivedAt?: boolean } = {}) {
  const allowed = useCan('usage.read');
  const usage = useGetUsageQuery(DAYS, { skip: !allowed, refetchOnMountOrArgChange: true });
  const loaded = usage.isSuccess;
  // `arrivedAt`: the screen was opened on this card (a plan refusal's link to Settings → Usage):
  // it is scrolled to and focused once its figures are in.
  useEffect(() => {
    if (!arrivedAt || !loaded) return;
    const card = document.getElementById('usage')?.closest('section');
    card?.scrollIntoView?.({ block: 'start' });
    card?.focus({ preventScroll: true });
  }, [arrivedAt, loaded]);
  if (!allowed) return null;
  return (
    <Card title="Usage" titleId="usage" style={{ marginTop: 16 }} aria-labelledby="usage" tabIndex={-1}>
      <QueryState query={usage} compact loading="Loading usage" error="Failed to load usage">
        {(data) => (
          <>
            <p style={{ margin: 0 }}>
              Plan: <strong style={{ textTransform: 'capitalize' }}>{data.plan}</strong>
              {data.readOnly ? (
                <>
                  {' '}
                  <Badge tone="danger">Trial ended</Badge>
                </>
              ) : data.trialEndsAt ? (
                <span className="muted"> (trial until {formatDate(data.trialEndsAt)})</span>
              ) : null}
              <span className="muted">
                {' '}
                · {formatNumber(data.publicApiRequestsPerMinute)} API requests per minute ·{' '}
                {formatNumber(data.aiJobsPerDay)} AI jobs per day
              </span>
            </p>
            <div className="stack">
              {data.limits.map((row) => (
                <LimitRow key={row.limit} row={row} />
              ))}
            </div>
            <RequestsChart days={data.days} />
          </>
        )}
      </QueryState>
    </Card>
  );
}
