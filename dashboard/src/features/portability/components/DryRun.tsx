import type { ReactNode } from 'react';
import type { ImportPlan, ImportPlanUse } from '@/api/portability';
import { UsageLink } from '@/components/PlanNotice';
import { formatFileSize, formatNumber } from '@/lib/format';
import { CountsTable } from './CountsTable';
import { leftOut, plural } from './labels';

/** Items listed in full up to this many; the rest are counted (the report lists every one). */
const SHOWN = 50;

const LIMIT_LABELS: Record<string, string> = {
  posts: 'Posts and pages',
  staff_seats: 'Staff accounts',
  media_bytes: 'Media storage',
};

const languageNames = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'language' }) : null;

/** "French (fr)"; the code alone when it has no English name. */
export function languageLabel(code: string): string {
  let name: string | undefined;
  try {
    name = languageNames?.of(code);
  } catch {
    name = undefined;
  }
  return name && name !== code ? `${name} (${code})` : code;
}

function amount(limit: string, value: number | null): string {
  if (value === null) return 'not known before the import';
  return limit === 'media_bytes' ? formatFileSize(value) : formatNumber(value);
}

function Block({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="stack" style={{ gap: 6 }} aria-labelledby={id}>
      <h4 id={id} style={{ margin: 0, fontSize: 15 }}>
        {title}
      </h4>
      {children}
    </section>
  );
}

function More({ total }: { total: number }) {
  if (total <= SHOWN) return null;
  return <p className="small muted">and {formatNumber(total - SHOWN)} more (the report lists every one)</p>;
}

/** What the import takes of each limit of the plan, beside what is used and what the plan allows. */
function PlanUse({ rows }: { rows: ImportPlanUse[] }) {
  const over = rows.filter((row) => !row.fits);
  return (
    <Block id="dry-run-plan" title="Your plan">
      <div className="table-wrap">
        <table className="table stack-table" aria-label="What the import takes of your plan">
          <thead>
            <tr>
              <th scope="col">Limit</th>
              <th scope="col">This import</th>
              <th scope="col">In use</th>
              <th scope="col">Plan allows</th>
              <th scope="col">Fits</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.limit}>
                <td className="cell-primary">{LIMIT_LABELS[row.limit] ?? row.limit}</td>
                <td data-label="This import">{amount(row.limit, row.importUses)}</td>
                <td data-label="In use">{amount(row.limit, row.used)}</td>
                <td data-label="Plan allows">{row.allowed === null ? 'no limit' : amount(row.limit, row.allowed)}</td>
                <td data-label="Fits">{row.fits ? 'Yes' : <strong>No</strong>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {over.length ? (
        <p className="notice notice-warning" role="alert">
          This import does not fit your plan ({over.map((row) => LIMIT_LABELS[row.limit] ?? row.limit).join(', ')}): it would be
          refused. Make room or change the plan first. <UsageLink />
        </p>
      ) : (
        <p className="small muted">The import fits your plan.</p>
      )}
    </Block>
  );
}

/** The dry run: what the import would do, and everything that would not come over as it is. */
export function DryRun({ plan }: { plan: ImportPlan }) {
  const { images, languages, accounts } = plan;
  const drafts = plan.madeDrafts ?? [];
  const membersOnly = plan.madeMembersOnly ?? [];
  const removed = plan.contentRemoved ?? [];
  const left = plan.notBroughtOver ?? [];
  const newLanguages = languages?.add ?? [];
  return (
    <div className="stack">
      <h3>Dry run: what the import would do</h3>
      <CountsTable counts={plan.counts ?? {}} caption="Dry run" />
      {plan.conflicts?.length ? (
        <p className="small">{plan.conflicts.length} slugs are taken here: those posts get a suffix (-2, -3...).</p>
      ) : null}
      {plan.unsupported?.length ? (
        <p className="small">
          Kept as text (not supported): {plan.unsupported.map((u) => `[${u.shortcode}] in ${u.posts} posts`).join(', ')}
        </p>
      ) : null}

      {images && images.referenced > 0 ? (
        <Block id="dry-run-images" title="Images">
          <p className="small" style={{ margin: 0 }}>
            The posts use {plural(images.referenced, 'image', 'images')}: {formatNumber(images.inArchive)} in the images
            archive, {formatNumber(images.alreadyImported)} brought by an earlier import,{' '}
            {formatNumber(images.toDownload)} to download from the old site.
          </p>
        </Block>
      ) : null}

      {languages && (languages.used.length > 0 || languages.unknown.length > 0 || languages.default) ? (
        <Block id="dry-run-languages" title="Languages">
          <ul className="small" style={{ margin: 0 }}>
            {newLanguages.length ? <li>Adds to the company's languages: {newLanguages.map(languageLabel).join(', ')}</li> : null}
            {languages.used.length ? <li>Posts in: {languages.used.map(languageLabel).join(', ')}</li> : null}
            {languages.groups ? <li>{plural(languages.groups, 'group', 'groups')} of translations</li> : null}
            {languages.default ? <li>The company's default language becomes {languageLabel(languages.default)}</li> : null}
            {languages.unknown.length ? (
              <li>Not a language (their posts go to the default language): {languages.unknown.join(', ')}</li>
            ) : null}
          </ul>
        </Block>
      ) : null}

      {plan.planUse?.length ? <PlanUse rows={plan.planUse} /> : null}

      {accounts && accounts.create > 0 ? (
        <Block id="dry-run-accounts" title="Staff accounts">
          <p className="small" style={{ margin: 0 }}>
            {accounts.message}
          </p>
        </Block>
      ) : null}

      {drafts.length ? (
        <Block id="dry-run-drafts" title={`Made drafts (${formatNumber(drafts.length)})`}>
          <p className="small muted" style={{ margin: 0 }}>
            Not public in the source, so never public here until you publish them.
          </p>
          <ul className="small" style={{ margin: 0 }}>
            {drafts.slice(0, SHOWN).map((d, i) => (
              <li key={i} className="break">
                <strong>{d.item}</strong>: {d.reason}
              </li>
            ))}
          </ul>
          <More total={drafts.length} />
        </Block>
      ) : null}

      {membersOnly.length ? (
        <Block id="dry-run-members-only" title={`Members only (${formatNumber(membersOnly.length)})`}>
          <p className="small muted" style={{ margin: 0 }}>
            For readers only in the source: published (or scheduled) as there, their text for signed-in members only.
          </p>
          <ul className="small" style={{ margin: 0 }}>
            {membersOnly.slice(0, SHOWN).map((d, i) => (
              <li key={i} className="break">
                <strong>{d.item}</strong>: {d.reason}
              </li>
            ))}
          </ul>
          <More total={membersOnly.length} />
        </Block>
      ) : null}

      {removed.length ? (
        <Block id="dry-run-removed" title={`Content removed (${plural(removed.length, 'post', 'posts')})`}>
          <p className="small muted" style={{ margin: 0 }}>
            Scripts, forms and embeds of other hosts are taken out of these posts; the rest of each post is kept.
          </p>
          <ul className="small" style={{ margin: 0 }}>
            {removed.slice(0, SHOWN).map((r, i) => (
              <li key={i} className="break">
                <strong>{r.item}</strong>: {r.removed.join(', ')}
              </li>
            ))}
          </ul>
          <More total={removed.length} />
        </Block>
      ) : null}

      {left.length ? (
        <Block id="dry-run-left" title="Not brought over">
          <ul className="small" style={{ margin: 0 }}>
            {left.map((l) => (
              <li key={l.kind}>
                <strong>{leftOut(l.kind, l.count)}</strong>: {l.why}
              </li>
            ))}
          </ul>
        </Block>
      ) : null}
    </div>
  );
}
