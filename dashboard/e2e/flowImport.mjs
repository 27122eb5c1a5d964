// Import & export against the real backend and its Celery worker: upload the sample Ghost export
// (apps/portability/tests/fixtures), read the dry run, import it (images not fetched: no outside
// network), watch the progress bar, read the report, see the imported posts in the list and through
// the public API; screenshots at 390 and 1280 px, axe-clean.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { axeViolations, layoutProblems } from './flowScreens.mjs';
import { expect, REPO } from './harness.mjs';

const SAMPLE = path.join(REPO, 'apps', 'portability', 'tests', 'fixtures', 'ghost-export.json');

export async function importFlow({ run, page, tenant, shot }) {
  const checkScreen = async (name) => {
    const problems = [...(await layoutProblems(page)), ...(await axeViolations(page)).map((v) => `axe ${v.impact} ${v.id}: ${v.nodes.join(' | ')}`)];
    expect(problems.length === 0, `${name}: ${problems.join('; ')}`);
  };

  await run.step('Import & export: upload a Ghost export, read the dry run', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${tenant}/dashboard`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Import & export' }).click();
    await page.getByRole('heading', { name: 'Import & export' }).waitFor();
    await page.getByTestId('import-file-input').setInputFiles({
      name: 'ghost-export.json', mimeType: 'application/json', buffer: readFileSync(SAMPLE),
    });
    await page.getByRole('heading', { name: 'Dry run: what the import would do' }).waitFor();
    await page.getByRole('table', { name: 'Dry run' }).getByText('2 create').waitFor();
    await checkScreen('dry run at 1280 px');
    await shot('30-import-dry-run-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await checkScreen('dry run at 390 px');
    await shot('31-import-dry-run-390');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  await run.step('import it: progress bar, then the report', async () => {
    await page.getByLabel('Download the images from the old site').uncheck();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const report = page.getByRole('table', { name: 'Imported' });
    const bar = page.getByRole('progressbar', { name: 'Import progress' });
    await Promise.race([bar.waitFor(), report.waitFor({ timeout: 60_000 })]);
    await report.waitFor({ timeout: 60_000 });
    await report.getByText('2 created').first().waitFor();
    await page.getByRole('button', { name: /Download the report/ }).waitFor();
    await checkScreen('report at 1280 px');
    await shot('32-import-report-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await checkScreen('report at 390 px');
    await shot('33-import-report-390');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  await run.step('the imported posts are in the list and in the public API', async () => {
    await page.getByRole('link', { name: 'See the posts' }).click();
    await page.getByText('Setting up your own Ghost theme').first().waitFor();
    await page.getByText('Advanced Markdown tips').first().waitFor();
    await shot('34-imported-posts');
    const answer = await page.evaluate(async () => {
      const auth = { Authorization: `Bearer ${localStorage.getItem('token')}` };
      const key = (await (await fetch('/api/client/info', { headers: auth })).json()).data.apiInfo.authentication.apiKey;
      const post = await (await fetch('/api/v1/posts/slug/themes', { headers: { 'x-api-key': key } })).json();
      const redirects = await (await fetch('/api/v1/redirects', { headers: { 'x-api-key': key } })).json();
      return { title: post.data?.post?.title, redirects: redirects.data?.redirects };
    });
    expect(answer.title === 'Setting up your own Ghost theme', `the public API serves the imported post: ${JSON.stringify(answer)}`);
    expect(answer.redirects?.some((r) => r.oldPath === '/themes/' && r.slug === 'themes'), 'the old address is in the redirect map');
  });
}
