"""Private service processes for fault tests and the load benchmark: a PostgreSQL cluster
(initdb into a temporary directory), a redis-server, gunicorn serving the production WSGI app,
a Celery worker, and a TCP proxy that can hold connections. Each listens on a free loopback
port of its own: the shared PostgreSQL (5432) and Redis (6379) are never touched. Nothing here
imports Django (bench/load.py uses it before Django is set up)."""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import redis
import requests

ROOT = Path(__file__).resolve().parents[4]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait(predicate, timeout: float, what: str, log: Path | None = None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if predicate():
                return
        except Exception:  # noqa: BLE001 - not up yet
            pass
        time.sleep(0.05)
    tail = log.read_text(errors="replace")[-3000:] if log and log.exists() else ""
    raise RuntimeError(f"{what} did not come up in {timeout}s\n{tail}")


def port_open(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _stop_group(process: subprocess.Popen | None, sig=signal.SIGTERM, timeout: float = 20) -> None:
    if process is None or process.poll() is not None:
        return
    try:
        os.killpg(process.pid, sig)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


# --- PostgreSQL ----------------------------------------------------------------------------------
def postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: [int(x) for x in
                   Path(p).parts[-3].split(".") if x.isdigit()])
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class PrivatePostgres:
    """A throwaway PostgreSQL cluster. As root it runs as the `postgres` system user (created if
    missing, as deploy/dev/services.sh does): PostgreSQL refuses to run as root."""

    def __init__(self, *, prefix: str = "cms-private-pg-", settings: dict[str, str] | None = None):
        self.bin = postgres_bin()
        if self.bin is None:
            raise RuntimeError("PostgreSQL server binaries (initdb) not found")
        # Its own directory: pytest's temporary directories are private to root, and the server
        # runs as `postgres`. Removed by cleanup().
        self.dir = Path(tempfile.mkdtemp(prefix=prefix))
        self.settings = dict(settings or {})  # more server settings (-c name=value)
        self.data = self.dir / "data"
        self.log = self.dir / "server.log"
        self.port = free_port()
        self.prefix: list[str] = []
        self.durable = False
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                subprocess.run(["useradd", "--system", "--no-create-home", "postgres"], check=True)
            self.prefix = ["runuser", "-u", "postgres", "--"]

    def url(self, database: str = "postgres") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, *args, check=True, **kw):
        return subprocess.run([*self.prefix, *args], check=check, capture_output=True, text=True, **kw)

    def init(self) -> "PrivatePostgres":
        self.data.mkdir(exist_ok=True)
        if self.prefix:
            shutil.chown(self.dir, "postgres")
            shutil.chown(self.data, "postgres")
            os.chmod(self.dir, 0o755)
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--no-sync")
        return self

    def start(self, *, durable: bool | None = None) -> "PrivatePostgres":
        """durable=False (tests, the default): no fsync, faster; True (benchmarks): PostgreSQL's
        own settings. A restart keeps the choice."""
        if durable is not None:
            self.durable = durable
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} -c max_connections=200"
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        options += "".join(f" -c {name}={value}" for name, value in self.settings.items())
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options, "-w",
                  "-t", "30", "start")
        _wait(lambda: self.ready(), 30, "private PostgreSQL", self.log)
        return self

    def ready(self) -> bool:
        import psycopg

        with psycopg.connect(self.url(), connect_timeout=1):
            return True

    def stop(self, mode: str = "fast") -> None:
        if (self.data / "postmaster.pid").exists():
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "-t", "30", "stop",
                      check=False)

    def cleanup(self) -> None:
        self.stop(mode="immediate")
        shutil.rmtree(self.dir, ignore_errors=True)

    def restart(self) -> None:
        self.stop()
        self.start()

    def createdb(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def sql(self, database: str, query: str, params=()) -> list[tuple]:
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True) as conn:
            cursor = conn.execute(query, params)
            return cursor.fetchall() if cursor.description else []


class PrivateReplica(PrivatePostgres):
    """A streaming replica of a PrivatePostgres: `pg_basebackup -R` (standby.signal and
    primary_conninfo written by it), started on its own port. The backup asks for an immediate
    checkpoint: the default spread one waits most of checkpoint_timeout on an idle primary (about
    150 s here, for every replica a test or benchmark starts)."""

    def init_from(self, primary: PrivatePostgres) -> "PrivateReplica":
        if self.prefix:
            shutil.chown(self.dir, "postgres")
            os.chmod(self.dir, 0o755)
        self._run(str(self.bin / "pg_basebackup"), "-h", "127.0.0.1", "-p", str(primary.port), "-U", "postgres",
                  "-D", str(self.data), "-R", "-X", "stream", "--no-sync", "--checkpoint=fast")
        return self

    def sql_value(self, database: str, query: str):
        return self.sql(database, query)[0][0]


# --- Redis ---------------------------------------------------------------------------------------
class PrivateRedis:
    """A redis-server without persistence: stopped and started again, it comes back empty, unless
    stopped with `keep_data` (it saves a snapshot first and loads it when started again, as a
    server restarted from its snapshot does)."""

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None
        self.dir: Path | None = None  # its working directory (a kept snapshot)

    def start(self) -> "PrivateRedis":
        binary = shutil.which("redis-server")
        if not binary:
            raise RuntimeError("redis-server is not installed")
        if self.dir is None:
            self.dir = Path(tempfile.mkdtemp(prefix="cms-private-redis-"))
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.dir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        _wait(lambda: redis.Redis.from_url(self.url, socket_timeout=0.5).ping(), 15, "private redis-server")
        return self

    def stop(self, *, keep_data: bool = False) -> None:
        if keep_data:
            self.client().save()
        _stop_group(self.process)
        _wait(lambda: not port_open(self.port), 10, "redis-server to stop")
        if not keep_data and self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, socket_timeout=2)


# --- the app ---------------------------------------------------------------------------------------
def app_env(*, database_url: str, redis_url: str, root_domain: str, queue: str, extra: dict | None = None) -> dict:
    """Environment of a server or worker process of the production settings on private services."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "CELERY_BROKER_URL": redis_url,
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "ROOT_DOMAIN": root_domain,
        "ALLOWED_HOSTS": f".{root_domain},{root_domain}",
        "DEBUG": "0",
        "LOG_LEVEL": "WARNING",
        "FAST_PASSWORD_HASHER": "1",
    }
    for name in ("TEST_REDIS_DB", "TEST_REDIS_URL_BASE", "PYTEST_XDIST_WORKER", "PYTEST_CURRENT_TEST"):
        env.pop(name, None)
    env.update(extra or {})
    return env


def migrate(env: dict) -> None:
    subprocess.run([sys.executable, "manage.py", "migrate_schemas", "--noinput"], cwd=ROOT, env=env, check=True,
                   capture_output=True, timeout=180)


class Gunicorn:
    """gunicorn with sync workers serving apps.public_api.wsgi:application (Django behind the
    public API's cache-hit fast path), as in production. `threads` > 1 runs gthread workers, so
    more requests than workers are served at the same moment (races between requests)."""

    def __init__(self, env: dict, *, workers: int = 2, log: Path, timeout: int = 30, threads: int = 1):
        self.env, self.workers, self.log, self.timeout = env, workers, Path(log), timeout
        self.threads = threads
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self.started_at = 0.0

    def start(self) -> "Gunicorn":
        log = open(self.log, "ab")  # noqa: SIM115 - closed with the process
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "apps.public_api.wsgi:application", "--workers", str(self.workers),
             *(("--worker-class", "gthread", "--threads", str(self.threads)) if self.threads > 1
               else ("--worker-class", "sync")),
             "--bind", f"127.0.0.1:{self.port}", "--timeout", str(self.timeout),
             "--backlog", "2048", "--log-level", "warning"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        _wait(lambda: port_open(self.port), 30, "gunicorn", self.log)
        self.started_at = time.monotonic()
        return self

    def stop(self) -> None:
        _stop_group(self.process)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def pids(self) -> list[int]:
        """The arbiter and its workers."""
        if self.process is None:
            return []
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(self.process.pid)], capture_output=True, text=True)
        return [self.process.pid, *(int(pid) for pid in out.stdout.split())]


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except FileNotFoundError:
        pass
    return 0.0


class CeleryWorker:
    """A Celery worker: the solo pool by default; `concurrency` > 1 runs prefork children (it holds
    that many tasks at once; kill() ends them all)."""

    def __init__(self, env: dict, *, queue: str, log: Path, concurrency: int = 1):
        self.env, self.queue, self.log = dict(env), queue, Path(log)
        self.concurrency = concurrency
        self.process: subprocess.Popen | None = None
        self.started_at = 0.0

    def start(self, timeout: float = 30) -> "CeleryWorker":
        log = open(self.log, "ab")  # noqa: SIM115
        offset = self.log.stat().st_size if self.log.exists() else 0
        pool = ["--pool", "solo"] if self.concurrency == 1 else ["--pool", "prefork", "--concurrency",
                                                                 str(self.concurrency)]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", *pool, "--loglevel", "INFO",
             "--queues", self.queue, "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        _wait(lambda: b"ready." in self.log.read_bytes()[offset:] or self.process.poll() is not None, timeout,
              "celery worker", self.log)
        if self.process.poll() is not None:
            raise RuntimeError(f"celery worker exited\n{self.log.read_text()[-3000:]}")
        self.started_at = time.monotonic()
        return self

    def kill(self) -> None:
        _stop_group(self.process, signal.SIGKILL)

    def stop(self) -> None:
        _stop_group(self.process)

    def text(self) -> str:
        return self.log.read_text(errors="replace")


class CeleryBeat:
    """celery beat (the product's schedule: the outbox relay every OUTBOX_RELAY_SECONDS...)."""

    def __init__(self, env: dict, *, log: Path):
        self.env, self.log = dict(env), Path(log)
        self.schedule = Path(tempfile.mkdtemp(prefix="cms-beat-")) / "schedule"
        self.process: subprocess.Popen | None = None
        self.started_at = 0.0

    def start(self, timeout: float = 30) -> "CeleryBeat":
        log = open(self.log, "ab")  # noqa: SIM115
        offset = self.log.stat().st_size if self.log.exists() else 0
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel", "INFO",
             "--schedule", str(self.schedule)],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        _wait(lambda: b"Starting..." in self.log.read_bytes()[offset:] or self.process.poll() is not None, timeout,
              "celery beat", self.log)
        if self.process.poll() is not None:
            raise RuntimeError(f"celery beat exited\n{self.log.read_text()[-3000:]}")
        self.started_at = time.monotonic()
        return self

    def stop(self) -> None:
        _stop_group(self.process)
        shutil.rmtree(self.schedule.parent, ignore_errors=True)


# --- a TCP proxy that can hold connections ---------------------------------------------------------
class HoldingProxy:
    """Forwards 127.0.0.1:<port> to a target port. While `hold` is set, new connections are
    accepted and kept waiting (nothing forwarded) until `release()`: a way to stop a client
    mid-call at a known point."""

    def __init__(self, target_port: int):
        self.target_port = target_port
        self.port = free_port()
        self.holding = threading.Event()
        self.released = threading.Event()
        self.held = threading.Event()  # a connection arrived while holding
        self.dropping = False
        self._server = socket.create_server(("127.0.0.1", self.port))
        self._server.settimeout(0.2)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def start(self) -> "HoldingProxy":
        self._thread.start()
        return self

    def hold(self) -> None:
        self.released.clear()
        self.held.clear()
        self.dropping = False
        self.holding.set()

    def release(self, *, drop: bool = False) -> None:
        """Let the held connections through, or with `drop` close them unforwarded (their client
        died: what it had written never reaches the target)."""
        self.dropping = drop
        self.holding.clear()
        self.released.set()

    def stop(self) -> None:
        self._stop.set()
        self.release()
        self._thread.join(5)
        self._server.close()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self._server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=self._handle, args=(client,), daemon=True).start()

    def _handle(self, client: socket.socket) -> None:
        if self.holding.is_set():
            self.held.set()
            self.released.wait()
            if self.dropping:
                client.close()
                return
        try:
            upstream = socket.create_connection(("127.0.0.1", self.target_port), timeout=10)
        except OSError:
            client.close()
            return

        def pipe(source, sink):
            try:
                while chunk := source.recv(65536):
                    sink.sendall(chunk)
            except OSError:
                pass
            finally:
                for sock in (source, sink):
                    try:
                        sock.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass

        threading.Thread(target=pipe, args=(upstream, client), daemon=True).start()
        pipe(client, upstream)


# --- PgBouncer ------------------------------------------------------------------------------------
def pgbouncer_bin() -> str | None:
    return shutil.which("pgbouncer") or next((p for p in ("/usr/sbin/pgbouncer",) if os.path.exists(p)), None)


class PgBouncer:
    """PgBouncer (the system package) on a free port in front of a PostgreSQL server, every
    database passed through, trust auth, in `pool_mode` (session, transaction or statement).
    As root it runs as the `postgres` system user (PgBouncer refuses to run as root)."""

    def __init__(self, *, pool_mode: str, server_port: int | None = None, pool_size: int = 4):
        self.binary = pgbouncer_bin()
        if self.binary is None:
            raise RuntimeError("pgbouncer is not installed (make pgbouncer)")
        # By default in front of the server the tests run on (DATABASE_URL: the test run's own
        # PostgreSQL, apps/core/testsuite/database.py).
        server_port = server_port or urlsplit(os.environ.get("DATABASE_URL", "")).port or 5432
        self.pool_mode, self.server_port, self.pool_size = pool_mode, server_port, pool_size
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="cms-pgbouncer-"))
        self.log = self.dir / "pgbouncer.log"
        self.process: subprocess.Popen | None = None
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            self.prefix = ["runuser", "-u", "postgres", "--"]

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> "PgBouncer":
        (self.dir / "users.txt").write_text('"postgres" ""\n')
        (self.dir / "pgbouncer.ini").write_text(f"""[databases]
* = host=127.0.0.1 port={self.server_port}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {self.port}
unix_socket_dir =
auth_type = trust
auth_file = {self.dir / 'users.txt'}
admin_users = postgres
pool_mode = {self.pool_mode}
default_pool_size = {self.pool_size}
max_client_conn = 500
server_reset_query = DISCARD ALL
ignore_startup_parameters = extra_float_digits
logfile = {self.log}
pidfile = {self.dir / 'pgbouncer.pid'}
""")
        if self.prefix:
            shutil.chown(self.dir, "postgres")
            for child in self.dir.iterdir():
                shutil.chown(child, "postgres")
        self.process = subprocess.Popen([*self.prefix, self.binary, str(self.dir / "pgbouncer.ini")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True)
        _wait(lambda: port_open(self.port), 15, "pgbouncer", self.log)
        return self

    def stop(self) -> None:
        _stop_group(self.process)
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> "PgBouncer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


# --- Varnish ----------------------------------------------------------------------------------------
def varnishd_bin() -> str | None:
    found = shutil.which("varnishd") or ("/usr/sbin/varnishd" if os.path.exists("/usr/sbin/varnishd") else None)
    if found and glob.glob("/usr/lib/*/varnish/vmods/libvmod_xkey.so") + glob.glob("/usr/lib/varnish/vmods/libvmod_xkey.so"):
        return found
    return None


class Varnish:
    """varnishd (the system package) on a free port running deploy/varnish/default.vcl in front of
    127.0.0.1:<backend_port>, with the VCL's per-key rate limit replaced by `rate_limit`."""

    def __init__(self, backend_port: int, *, rate_limit: tuple[int, int] = (600, 60)):
        self.binary = varnishd_bin()
        if self.binary is None:
            raise RuntimeError("varnishd with varnish-modules is not installed (make varnish)")
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="cms-varnish-"))
        os.chmod(self.dir, 0o755)
        vcl = (ROOT / "deploy/varnish/default.vcl").read_text()
        vcl = vcl.replace('.host = "content";', '.host = "127.0.0.1";').replace('.port = "8000";', f'.port = "{backend_port}";')
        count, seconds = rate_limit
        vcl = vcl.replace("600), 60s)", f"{count}), {seconds}s)")
        assert f"{count}), {seconds}s)" in vcl
        (self.dir / "default.vcl").write_text(vcl)
        os.chmod(self.dir / "default.vcl", 0o644)
        self.process: subprocess.Popen | None = None
        self.log = self.dir / "varnishd.log"

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "Varnish":
        log = open(self.log, "ab")  # noqa: SIM115
        self.process = subprocess.Popen(
            [self.binary, "-F", "-n", str(self.dir / "work"), "-a", f"127.0.0.1:{self.port}",
             "-f", str(self.dir / "default.vcl"), "-s", "malloc,64m", "-T", "none"],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        _wait(lambda: port_open(self.port), 30, "varnishd", self.log)
        return self

    def stat(self, field: str) -> int:
        out = subprocess.run(["varnishstat", "-n", str(self.dir / "work"), "-1", "-f", field],
                             capture_output=True, text=True, check=True).stdout.split()
        return int(out[1]) if len(out) > 1 else 0

    def stop(self) -> None:
        _stop_group(self.process)
        shutil.rmtree(self.dir, ignore_errors=True)


class Http:
    """HTTP to a server the tests started, on a company's host (a Host header), one session."""

    def __init__(self, base_url: str, host: str, headers: dict | None = None, *, timeout: float = 20):
        self.base_url, self.host, self.headers, self.timeout = base_url, host, dict(headers or {}), timeout
        self.session = requests.Session()

    def request(self, method: str, path: str, **kw) -> requests.Response:
        headers = {"Host": self.host, **self.headers, **kw.pop("headers", {})}
        return self.session.request(method, self.base_url + path, headers=headers,
                                    timeout=kw.pop("timeout", self.timeout), **kw)

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, **kw):
        return self.request("POST", path, **kw)

    def put(self, path, **kw):
        return self.request("PUT", path, **kw)
