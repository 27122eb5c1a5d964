/**
 * The real product for the SDK's tests: deploy/dev/e2e-server.sh on a free port (granian,
 * Celery, a fresh database with the seeded demo company), as the dashboard's browser flows start
 * it (dashboard/e2e/harness.mjs). The demo company's content and preview keys are read from its
 * database.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A fetch that sends every request to 127.0.0.1:port with the URL's host in the Host header
 * (`demo.localhost` does not resolve everywhere, and fetch does not let a caller set Host).
 */
export function loopbackFetch(port: number): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = { host: url.host };
    request.headers.forEach((value, key) => {
      headers[key] = value;
    });
    // A length, not chunked encoding: WSGI reads a body by its Content-Length.
    if (body) headers['content-length'] = String(body.length);
    return new Promise<Response>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, method: request.method, path: url.pathname + url.search, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const responseHeaders = new Headers();
            for (const [key, value] of Object.entries(res.headers)) {
              if (value !== undefined) responseHeaders.set(key, Array.isArray(value) ? value.join(', ') : value);
            }
            const status = res.statusCode ?? 0;
            const bodyless = status === 204 || status === 304;
            resolve(new Response(bodyless ? null : Buffer.concat(chunks), { status, headers: responseHeaders }));
          });
        },
      );
      req.on('error', reject);
      if (body) req.write(body);
      req.end();
    });
  };
}

function healthy(port: number): Promise<boolean> {
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

export interface LiveServer {
  port: number;
  baseUrl: string;
  apiKey: string;
  previewKey: string;
  /** The demo company's key of the Ghost-compatible Content API (/ghost/api/content/). */
  ghostKey: string;
  /** Its database and signing key (demoMemberToken signs a member's token as the server does). */
  database: string;
  secretKey: string;
  stop(): Promise<void>;
}

function demoKeys(database: string): { apiKey: string; previewKey: string; ghostKey: string } {
  const base = (process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/cms').replace(/\/[^/]*$/, '');
  const [apiKey, previewKey, ghostKey] = execFileSync(
    'psql',
    [
      `${base}/${database}`,
      '-Atc',
      "SELECT api_key || '|' || preview_key || '|' || ghost_content_key FROM public.tenants_client WHERE subdomain = 'demo'",
    ],
    { encoding: 'utf8' },
  )
    .trim()
    .split('|');
  return { apiKey, previewKey, ghostKey };
}

export async function startServer({ timeoutMs = 300_000 } = {}): Promise<LiveServer> {
  const port = Number(process.env.SDK_E2E_PORT) || (await freePort());
  const database = process.env.SDK_E2E_DATABASE || `cms_sdk_e2e_${port}`;
  // The server's signing key, known here (deploy/dev/e2e-server.sh makes a throw-away one otherwise).
  const secretKey = process.env.SECRET_KEY || randomBytes(36).toString('base64url');
  if (process.env.SDK_E2E_RUNNING) {
    // A server already started with deploy/dev/e2e-server.sh SDK_E2E_PORT (E2E_DATABASE=SDK_E2E_DATABASE),
    // with this SECRET_KEY.
    return { port, baseUrl: `http://demo.localhost:${port}`, ...demoKeys(database), database, secretKey, stop: async () => {} };
  }
  const env = {
    ...process.env,
    SECRET_KEY: secretKey,
    E2E_DATABASE: database,
    E2E_REDIS_URL: process.env.E2E_REDIS_URL || 'redis://127.0.0.1:6379/9',
  };
  const script = path.join(REPO, 'deploy', 'dev', 'e2e-server.sh');
  const child = spawn('bash', [script, String(port)], { cwd: REPO, env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  let exited: number | null = null;
  child.on('exit', (code) => {
    exited = code ?? -1;
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (exited !== null || child.pid === undefined) return resolve();
      child.once('exit', () => resolve());
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        resolve();
      }
      setTimeout(() => {
        try {
          process.kill(-(child.pid as number), 'SIGKILL');
        } catch {
          // already gone
        }
        resolve();
      }, 15_000).unref();
    });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`e2e server exited with ${exited}:\n${log}`);
    if (await healthy(port)) {
      return { port, baseUrl: `http://demo.localhost:${port}`, ...demoKeys(database), database, secretKey, stop };
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  await stop();
  throw new Error(`e2e server did not answer /api/health in time:\n${log}`);
}

/** The dashboard API of the demo company, signed in with its admin's known login (lifecycle's
 * seed_demo): what the tests use to set content up (feature a post, add a language, translate). */
export type StaffCall = (method: string, path: string, body?: unknown) => Promise<{ status: number; json: any }>;

export async function demoStaff(server: LiveServer): Promise<StaffCall> {
  const fetch = loopbackFetch(server.port);
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const reply = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await reply.text();
    return { status: reply.status, json: text ? JSON.parse(text) : null };
  };
  const login = await call('POST', '/api/auth/login', { email: 'admin@example.com', password: 'admin12345' });
  if (login.status !== 200) throw new Error(`demo admin login: ${login.status} ${JSON.stringify(login.json)}`);
  return (method, path, body) => call(method, path, body, login.json.token as string);
}

/**
 * The session token of a new member of the demo company, as POST /api/v1/members/session answers
 * it after a sign-in link (apps.members.tokens.session_token), signed here with the server's key:
 * what a website sends as X-Member-Token to read members-only posts.
 */
export function demoMemberToken(server: LiveServer): string {
  const base = (process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/cms').replace(/\/[^/]*$/, '');
  const code = [
    'import secrets',
    'from django.utils import timezone',
    'from django_tenants.utils import schema_context',
    'from apps.members.models import Member',
    'from apps.members.tokens import session_token',
    'from tenants.models import Client',
    "with schema_context(Client.objects.get(subdomain='demo').schema_name):",
    "    member = Member.objects.create(email=f'reader-{secrets.token_hex(4)}@example.com', created_at=timezone.now())",
    "    print('token=' + session_token(member)[0])",
  ].join('\n');
  const out = execFileSync(path.join(REPO, '.venv', 'bin', 'python'), ['manage.py', 'shell', '-c', code], {
    cwd: REPO,
    encoding: 'utf8',
    env: {
      ...process.env,
      DATABASE_URL: `${base}/${server.database}`,
      SECRET_KEY: server.secretKey,
      JWT_SECRET: process.env.JWT_SECRET || randomBytes(36).toString('base64url'), // (not used here)
      REDIS_URL: process.env.E2E_REDIS_URL || 'redis://127.0.0.1:6379/9',
      ROOT_DOMAIN: 'localhost',
      PUBLIC_PORT: String(server.port),
      PUBLIC_SCHEME: 'http',
      DEBUG: '0',
      PYTHONPATH: `${path.join(REPO, 'platform')}:${REPO}`,
    },
  });
  const line = out.split('\n').find((l) => l.startsWith('token='));
  if (!line) throw new Error(`no member token: ${out}`);
  return line.slice('token='.length);
}
