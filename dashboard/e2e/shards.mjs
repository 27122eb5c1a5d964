// The browser flows (e2e/run.mjs) in two processes side by side: `npm run test:e2e`.
//
// Each process runs the first flow (a company of its own: registered, signed in, a post's life
// cycle) and its share of the others, on a backend, database, Redis database, SMTP server and
// screenshot folder of its own (e2e/screenshots/shard-N). The dashboard is built once, before.
// One run leaves half of the machine idle (it waits on the browser and the server in turn); two
// fill it. Each process's output is printed whole when it ends, then the total.
//
// E2E_SHARDS=1, or E2E_FLOWS (a chosen list of flows), runs one process: node e2e/run.mjs.
import { execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { DASHBOARD, HERE } from './harness.mjs';

// 'screens' reads what 'roles' and 'site' made (a viewer, a tag, a page), so the three stay
// together; the rest take about as long ("Seconds per flow" at the end of a run).
const SHARES = [
  { flows: 'roles,site,screens', redis: 'redis://127.0.0.1:6379/9' },
  {
    flows: 'webhooks,import,editorial,translations,publishing,members,newsletters,readers,plans,accounts',
    redis: 'redis://127.0.0.1:6379/8',
  },
];

function runOne(env = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(HERE, 'run.mjs')], {
      cwd: DASHBOARD,
      env: { ...process.env, ...env },
      stdio: env.E2E_SHARD ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('exit', (code, signal) => resolve({ code: code ?? 1, signal, output }));
  });
}

async function main() {
  if (process.env.E2E_FLOWS || process.env.E2E_SHARDS === '1') {
    const { code } = await runOne();
    process.exitCode = code;
    return;
  }
  const started = Date.now();
  if (!process.env.E2E_SKIP_BUILD) {
    console.log('Building the dashboard...');
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: DASHBOARD, stdio: ['ignore', 'ignore', 'inherit'] });
    console.log(`  built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  rmSync(path.join(HERE, 'screenshots'), { recursive: true, force: true });
  console.log(`Running the flows in ${SHARES.length} processes side by side: ${SHARES.map((s) => s.flows).join(' | ')}`);
  const results = await Promise.all(SHARES.map((share, n) => runOne({
    E2E_SHARD: String(n + 1),
    E2E_FLOWS: share.flows,
    E2E_SKIP_BUILD: '1',
    E2E_DATABASE: `cms_e2e_dashboard_${n + 1}`,
    E2E_REDIS_URL: share.redis,
    ...(process.env.E2E_PORT ? { E2E_PORT: String(Number(process.env.E2E_PORT) + n) } : {}), // E2E_PORT, E2E_PORT + 1
  })));
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  results.forEach((result, n) => {
    console.log(`\n=== e2e process ${n + 1} (${SHARES[n].flows}): exit ${result.signal ?? result.code}`);
    console.log(result.output.trimEnd());
    // Its last line: "N passed, N failed" and ", N skipped" when a failed step skipped the rest of its flow.
    const counts = /(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$/.exec(result.output.trimEnd());
    if (counts) {
      passed += Number(counts[1]);
      failed += Number(counts[2]);
      skipped += Number(counts[3] ?? 0);
    } else {
      failed += 1; // ended before its summary: counted as a failure
    }
  });
  const ok = results.every((r) => r.code === 0) && failed === 0;
  console.log(`\nbrowser flows: ${((Date.now() - started) / 1000).toFixed(0)} s in ${SHARES.length} processes`);
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exitCode = ok ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
