"""What the benchmarks share: smoke mode and a fresh database of their own.

Smoke mode (BENCH_SMOKE=1, `make bench-smoke`): every benchmark runs its whole path, from an
empty database to its printed table, on small data with a second or two of load, so that CI
notices a benchmark that no longer runs (its numbers then say nothing about speed). A knob set
in the environment (BENCH_SECONDS, BENCH_POSTS, ...) wins in either mode.
"""
from __future__ import annotations

import hashlib
import http.client
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import redis

ROOT = Path(__file__).resolve().parent.parent
SMOKE = os.environ.get("BENCH_SMOKE", "") not in ("", "0")
# The benchmarks' Redis database; each keeps its keys under its own prefix. On a machine shared
# with test suites, name one no suite empties (FLUSHDB) while a benchmark runs.
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")


def knob(name: str, normal, smoke=None):
    """The environment's value of `name` (of the default's type), else the default of the mode."""
    default = smoke if SMOKE and smoke is not None else normal
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return type(default)(value) if not isinstance(default, bool) else value not in ("0", "false", "")


def server_url() -> str:
    """The PostgreSQL server of DATABASE_URL, without a database name."""
    return os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/cms").rsplit("/", 1)[0]


def fresh_database(name: str, *, migrated: bool = True) -> str:
    """Drop and create the benchmark's own database `name` (connections to it are ended): a copy of
    a database that migrate_schemas made from empty for this code (migrated_template), so that the
    benchmark's own migrate_schemas finds nothing to do; empty with migrated=False (a database of
    another application, Wagtail's). Its URL."""
    base = server_url()
    with _server(base) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not migrated:
            conn.execute(f'CREATE DATABASE "{name}"')
            return f"{base}/{name}"
        conn.execute("SELECT pg_advisory_lock(%s)", [_TEMPLATE_LOCK])  # the template made, or kept, until copied
        template = migrated_template(conn, base)
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    return f"{base}/{name}"


def drop_database(name: str) -> None:
    """Drop the benchmark's own database `name` at its end (connections to it are ended)."""
    try:
        with _server(server_url()) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    except psycopg.Error as exc:  # the run's figures are printed: a database left behind is only noted
        print(f"could not drop {name}: {exc}", flush=True)


def _server(base: str) -> psycopg.Connection:
    return psycopg.connect(f"{base}/postgres", autocommit=True)


_TEMPLATE_LOCK = 7_340_021  # the server's benchmark templates: made, copied or dropped one at a time
_TEMPLATE_PREFIX = "cms_bench_template_"


def _code_digest() -> str:
    """What migrate_schemas runs: every Python file of the project's apps (migrations, models, the
    provisioning template's code) and settings."""
    digest = hashlib.sha256()
    for folder in ("apps", "lifecycle", "tenants", "platform"):
        for path in sorted(p for p in (ROOT / folder).rglob("*.py") if "tests" not in p.parts):
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def migrated_template(conn: psycopg.Connection, base: str) -> str:
    """The name of a database migrate_schemas made from empty with this code, made first when the
    server has none; templates of other code are dropped then. `conn` holds _TEMPLATE_LOCK
    (benchmarks that start together make it once, and none is dropped while another copies it)."""
    name = f"{_TEMPLATE_PREFIX}{_code_digest()}"
    found = {row[0] for row in conn.execute("SELECT datname FROM pg_database WHERE datname LIKE %s",
                                             [f"{_TEMPLATE_PREFIX}%"])}
    if name in found:
        return name
    building = f"{name}_building"
    conn.execute(f'DROP DATABASE IF EXISTS "{building}" WITH (FORCE)')
    conn.execute(f'CREATE DATABASE "{building}"')
    started = time.perf_counter()
    env = {**os.environ, "DATABASE_URL": f"{base}/{building}", "DJANGO_SETTINGS_MODULE": "config.settings",
           "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]), "SCHEMA_POOL_SIZE": "0"}
    subprocess.run([sys.executable, "manage.py", "migrate_schemas", "--noinput", "-v", "0"], cwd=ROOT, env=env,
                   check=True)
    conn.execute(f'ALTER DATABASE "{building}" RENAME TO "{name}"')
    for old in found - {name}:
        conn.execute(f'DROP DATABASE IF EXISTS "{old}" WITH (FORCE)')
    print(f"migrated template database {name} made in {time.perf_counter() - started:.1f} s", flush=True)
    return name


def fresh_redis(url: str, prefix: str, *queues: str) -> None:
    """Delete the benchmark's own keys (`prefix`:*) and Celery queues left by an earlier run: a
    host map or a cached reply of a company of the same name would otherwise be served to this
    run's one, and a task of an interrupted run be run against this run's database."""
    client = redis.Redis.from_url(url)
    for key in client.scan_iter(f"{prefix}:*", count=1000):
        client.delete(key)
    if queues:
        client.delete(*queues)


def use_own_redis(name: str) -> None:
    """For a benchmark that runs the app in its own process (before django.setup()): the
    benchmarks' Redis database, its own key prefix and Celery queue (`bench-{name}`), cleared."""
    os.environ.update({"REDIS_URL": REDIS_URL, "CELERY_BROKER_URL": REDIS_URL, "CACHE_KEY_PREFIX": f"bench-{name}",
                       "CELERY_TASK_DEFAULT_QUEUE": f"cms-bench-{name}"})
    fresh_redis(REDIS_URL, f"bench-{name}", f"cms-bench-{name}")


def announce() -> None:
    """In smoke mode, say first that its figures are not measurements."""
    if SMOKE:
        print("SMOKE MODE (BENCH_SMOKE=1): small data, seconds of load; the figures prove the run, not the speed\n",
              flush=True)


def median_p90(timings: list[float]) -> tuple[float, float]:
    """Median and 90th percentile of `timings`, in their unit."""
    timings = sorted(timings)
    return statistics.median(timings), timings[max(0, int(len(timings) * 0.9) - 1)]


def request_timings(port: int, path: str, headers: dict[str, str], *, host: str, requests: int,
                    timeout: float = 30) -> list[float]:
    """Seconds of `requests` GETs of `path` on one keep-alive connection, after 10 that warm the
    worker; anything but 200 stops the benchmark."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    timings = []
    for _ in range(requests + 10):
        started = time.perf_counter()
        conn.request("GET", path, headers={"Host": host, **headers})
        response = conn.getresponse()
        response.read()
        if response.status != 200:
            sys.exit(f"GET {path}: HTTP {response.status}")
        timings.append(time.perf_counter() - started)
    return timings[10:]
