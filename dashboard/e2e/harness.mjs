// Minimal end-to-end harness: starts the real backend, drives Debian's Chromium through
// playwright-core, takes screenshots, and prints "N passed, N failed".
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const HERE = path.dirname(fileURLToPath(import.meta.url));
export const DASHBOARD = path.resolve(HERE, '..');
export const REPO = path.resolve(DASHBOARD, '..');
// One folder per process when the flows run in several (e2e/shards.mjs sets E2E_SHARD).
export const SHARD = process.env.E2E_SHARD || '';
export const SHOTS = path.join(HERE, 'screenshots', ...(SHARD ? [`shard-${SHARD}`] : []));
const SERVER_LOG = `.server${SHARD ? `-${SHARD}` : ''}.log`;

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Chromium from the system (never downloaded): found on PATH at run time. */
export function findChromium() {
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      const found = execFileSync('which', [name], { encoding: 'utf8' }).trim();
      if (found) return found;
    } catch {
      // try the next name
    }
  }
  throw new Error('Chromium was not found on PATH. Install it with your system packages (Debian: apt-get install chromium).');
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function healthy(port) {
  return new Promise((resolve) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: '/api/health', headers: { Host: `localhost:${port}` }, timeout: 2000 },
      (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      },
    );
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
  });
}

/** Start deploy/dev/e2e-server.sh PORT in its own process group; resolves when /api/health answers. */
export async function startServer(port, { timeoutMs = 240_000, emailUrl } = {}) {
  const script = path.join(REPO, 'deploy', 'dev', 'e2e-server.sh');
  mkdirSync(HERE, { recursive: true });
  const log = createWriteStream(path.join(HERE, SERVER_LOG));
  const env = {
    ...process.env,
    // A database and Redis db of its own, so a backend e2e run on the same machine is not disturbed.
    E2E_DATABASE: process.env.E2E_DATABASE || 'cms_e2e_dashboard',
    E2E_REDIS_URL: process.env.E2E_REDIS_URL || 'redis://127.0.0.1:6379/9',
    // Deterministic AI answers, no outside service.
    AI_PROVIDER: 'offline',
    // The webhooks flow's receiver listens on 127.0.0.1 (refused by default as a private address).
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1',
    // Email goes to the flows' own SMTP server (startMailCatcher), where they read it.
    ...(emailUrl ? { EMAIL_URL: emailUrl, EMAIL_RETRY_BASE_SECONDS: '1' } : {}),
  };
  const child = spawn('bash', [script, String(port)], { cwd: REPO, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  let exited = null;
  child.on('exit', (code) => {
    exited = code ?? -1;
  });
  const stop = () =>
    new Promise((resolve) => {
      if (exited !== null) return resolve();
      child.once('exit', () => resolve());
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        return resolve();
      }
      setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
        resolve();
      }, 10_000).unref();
    });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`e2e server exited with ${exited}; see e2e/${SERVER_LOG}`);
    if (await healthy(port)) return { stop };
    await new Promise((r) => setTimeout(r, 500));
  }
  await stop();
  throw new Error(`e2e server did not answer /api/health in time; see e2e/${SERVER_LOG}`);
}

export async function launchBrowser() {
  return chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS, headless: true });
}

/** Sequential named steps; a failed step stops the flow (later steps depend on it). */
export function createRunner() {
  const results = [];
  let failedFlow = false;
  return {
    results,
    async step(name, fn) {
      if (failedFlow) {
        results.push({ name, status: 'skipped' });
        console.log(`  - ${name} (skipped)`);
        return;
      }
      const started = Date.now();
      try {
        await fn();
        results.push({ name, status: 'passed' });
        console.log(`  ✓ ${name} (${Date.now() - started} ms)`);
      } catch (err) {
        failedFlow = true;
        results.push({ name, status: 'failed', error: err });
        console.log(`  ✗ ${name}\n    ${String(err?.stack || err).split('\n').slice(0, 6).join('\n    ')}`);
      }
    },
    reset() {
      failedFlow = false;
    },
    summary() {
      const passed = results.filter((r) => r.status === 'passed').length;
      const failed = results.filter((r) => r.status === 'failed').length;
      const skipped = results.filter((r) => r.status === 'skipped').length;
      return { passed, failed, skipped, line: `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}` };
    },
  };
}

export function expect(condition, message) {
  if (!condition) throw new Error(message);
}

/**
 * A real SMTP server (apps/core/mailcatcher.py, aiosmtpd) on a free port: the backend sends every
 * email there (startServer's emailUrl) and the flows read them. `waitFor(to, match)` resolves with
 * the first message to that address whose subject or text matches: {to, subject, headers, text, html,
 * links} (headers by name as sent).
 */
export async function startMailCatcher() {
  const dir = path.join(HERE, `.mail${SHARD ? `-${SHARD}` : ''}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const python = path.join(REPO, '.venv', 'bin', 'python');
  const child = spawn(python, ['-m', 'apps.core.mailcatcher', '--port', '0', '--dir', dir], {
    cwd: REPO,
    env: { ...process.env, PYTHONPATH: `${path.join(REPO, 'platform')}:${REPO}` },
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const found = /listening (\d+)/.exec(out);
      if (found) resolve(Number(found[1]));
    });
    child.on('exit', (code) => reject(new Error(`the SMTP catcher exited with ${code}`)));
  });
  const messages = () =>
    readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(to, match = /./, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = messages().find(
          (m) => m.to.toLowerCase().includes(to.toLowerCase()) && (match.test(m.subject) || match.test(m.text)),
        );
        if (found) return found;
        await new Promise((r) => setTimeout(r, 300));
      }
      throw new Error(`no email to ${to} matching ${match} within ${timeoutMs} ms (received: ${messages().map((m) => `${m.to}: ${m.subject}`).join('; ') || 'none'})`);
    },
    stop() {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    },
  };
}
