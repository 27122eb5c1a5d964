// Dashboard speed in the system Chromium against the real backend (deploy/dev/e2e-server.sh,
// a fresh database with the demo company): JavaScript transferred for the sign-in page and for
// the post editor opened cold, and the time from clicking Sign In to the stat cards, as a median
// of BENCH_RUNS cold sign-ins. Prints the numbers; asserts nothing.
// `make bench-dashboard` (builds the dashboard first unless E2E_SKIP_BUILD=1 and a build exists).
// BENCH_SMOKE=1: 1 run, and an existing build is used as it is.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DASHBOARD, freePort, launchBrowser, startServer } from '../dashboard/e2e/harness.mjs';
import { editorColdJs, kb, median, signInToStats } from '../dashboard/e2e/measure.mjs';

const SMOKE = !['', '0', undefined].includes(process.env.BENCH_SMOKE);
const RUNS = Number(process.env.BENCH_RUNS) || (SMOKE ? 1 : 9);

async function main() {
  const skipBuild = process.env.E2E_SKIP_BUILD || SMOKE;
  if (!skipBuild || !existsSync(path.join(DASHBOARD, 'dist', 'index.html'))) {
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: DASHBOARD, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  if (process.env.BENCH_REDIS_URL) process.env.E2E_REDIS_URL = process.env.BENCH_REDIS_URL;
  process.env.E2E_DATABASE ||= 'cms_bench_dashboard';
  const port = await freePort();
  const server = await startServer(port);
  const browser = await launchBrowser();
  try {
    if (SMOKE) console.log('SMOKE MODE (BENCH_SMOKE=1): one run; the figures prove the run, not the speed');
    const tenant = `http://demo.localhost:${port}`;
    const who = { email: 'admin@example.com', password: 'admin12345' };
    const warm = await signInToStats(browser, tenant, who); // first request of each server process
    const times = [];
    let loginJs = 0;
    for (let i = 0; i < RUNS; i += 1) {
      const r = await signInToStats(browser, tenant, who);
      times.push(r.ms);
      loginJs = r.loginJs;
    }
    const editorJs = await editorColdJs(browser, tenant, warm.storageState);
    console.log(`JavaScript transferred, sign-in page (cold): ${kb(loginJs)}`);
    console.log(`JavaScript transferred, post editor (cold, signed in): ${kb(editorJs)}`);
    console.log(`Sign In click to stat cards, ${RUNS} cold runs: median ${median(times).toFixed(0)} ms ` +
      `(min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)})`);
  } finally {
    await browser.close().catch(() => {});
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
