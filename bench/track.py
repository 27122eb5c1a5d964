"""Page-view tracking under load: POST /api/v1/analytics/track with wrk (-t1 -c32, 15 s after a
5 s warm-up) against granian (as in the image; BENCH_SERVER=gunicorn for 2 sync workers) on loopback, then the flush + rollup of every
buffered event into PostgreSQL (events/s), checking that each accepted request was counted.
Also measured: tracking while Redis is down (events written straight to PostgreSQL).
Runs on its own database (cms_bench_track) and Redis key prefix.

Environment: BENCH_SECONDS (15), BENCH_WARMUP (5), BENCH_CONNECTIONS (32), BENCH_WORKERS (2),
BENCH_REDIS_URL (redis://127.0.0.1:6379/13), BENCH_SERVER (granian or gunicorn). BENCH_SMOKE=1:
-c8, 2 s after 1 s.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
from bench import servers  # noqa: E402
from bench.common import REDIS_URL, SMOKE, announce, fresh_database, fresh_redis, knob  # noqa: E402
from bench.servers import stop  # noqa: E402

DB_URL = fresh_database("cms_bench_track")
PREFIX = "bench-track"
SECONDS = knob("BENCH_SECONDS", 15, 2)
WARMUP = knob("BENCH_WARMUP", 5, 1)
CONNECTIONS = knob("BENCH_CONNECTIONS", 32, 8)
WORKERS = knob("BENCH_WORKERS", 2)
SERVER = os.environ.get("BENCH_SERVER", "granian")
HOST = "track.localhost"
SERVER_ENV = {
    **os.environ,
    "DATABASE_URL": DB_URL,
    "REDIS_URL": REDIS_URL,
    "CELERY_BROKER_URL": REDIS_URL,
    "CACHE_KEY_PREFIX": PREFIX,
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
    "ROOT_DOMAIN": "localhost",
    "DEBUG": "0",
    "LOG_LEVEL": "ERROR",
}
os.environ.update({k: v for k, v in SERVER_ENV.items() if k != "PYTHONPATH"})

if not shutil.which("wrk"):
    sys.exit("wrk is not installed (make bench-track installs it)")

import django  # noqa: E402

django.setup()
import redis  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django_tenants.utils import schema_context  # noqa: E402

from apps.analytics import buffer, services  # noqa: E402
from apps.analytics.models import DailyTotal, PageView  # noqa: E402
from apps.content.models import Post  # noqa: E402
from lifecycle.services import client_register  # noqa: E402

SCRIPT = """
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
counter = 0
request = function()
  counter = counter + 1
  local body = string.format(
    '{"pageUrl":"https://site.example/blog/post-%d","referrer":"%s","postSlug":"post-%d",' ..
    '"ipAddress":"10.0.%d.%d","userAgent":"BenchBrowser/1.0"}',
    counter % 100, (counter % 3 == 0) and "https://www.google.com/" or "", counter % 100,
    counter % 250, counter % 200)
  return wrk.format(nil, nil, nil, body)
end
"""


def start_server(extra_env: dict | None = None) -> tuple[subprocess.Popen, int]:
    return servers.start_server(SERVER, {**SERVER_ENV, **(extra_env or {})}, workers=WORKERS)


def wrk(port: int, seconds: int, key: str, script: str) -> dict:
    out = subprocess.run(
        ["wrk", "-t1", f"-c{CONNECTIONS}", f"-d{seconds}s", "--timeout", "30s", "--latency", "-s", script,
         "-H", f"Host: {HOST}",
         "-H", f"x-api-key: {key}", f"http://127.0.0.1:{port}/api/v1/analytics/track"],
        capture_output=True, text=True,
    ).stdout

    def latency(label: str) -> float:
        match = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        value, unit = float(match.group(1)), match.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
            "requests": int(re.search(r"(\d+) requests in", out).group(1)),
            "errors": int(non_2xx.group(1)) if non_2xx else 0, "p50": latency("50"), "p99": latency("99")}


def views() -> tuple[int, int, int]:
    with schema_context(tenant.schema_name):
        rolled = sum(DailyTotal.objects.values_list("views", flat=True))
        raw = PageView.objects.count()
        pending = PageView.objects.filter(rolled_up=False).count()
    connection.set_schema_to_public()
    return rolled, raw, pending


def row(name: str, result: dict) -> None:
    note = f"  ({result['errors']} non-2xx)" if result["errors"] else ""
    print(f"{name:<44} | {result['rps']:>9,.0f} | {result['p50']:>8.2f} ms | {result['p99']:>8.2f} ms{note}",
          flush=True)


call_command("migrate_schemas", interactive=False, verbosity=0)
client = redis.Redis.from_url(REDIS_URL)
fresh_redis(REDIS_URL, PREFIX)
tenant = client_register(company_name="Track", contact_name="Bench", contact_email="bench@example.com",
                         subdomain="track", admin_username="bench", admin_email="bench@example.com",
                         admin_password="password123", verified=True)
with schema_context(tenant.schema_name):
    Post.objects.bulk_create([Post(title=f"Post {n}", slug=f"post-{n}", status="published") for n in range(100)])
connection.set_schema_to_public()

with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as handle:
    handle.write(SCRIPT)
    script_path = handle.name

announce()

print(f"{SERVER}, {WORKERS} workers; wrk -t1 -c{CONNECTIONS} {SECONDS}s after {WARMUP}s warm-up\n", flush=True)
print(f"{'scenario':<44} | {'req/s':>9} | {'p50':>11} | {'p99':>11}", flush=True)
print("-" * 86, flush=True)
server, port = start_server()
try:
    warm = wrk(port, WARMUP, tenant.api_key, script_path)
    result = wrk(port, SECONDS, tenant.api_key, script_path)
    row("track (Redis stream)", result)
finally:
    stop(server)
accepted = warm["requests"] - warm["errors"] + result["requests"] - result["errors"]
buffered = client.xlen(buffer.stream_key(tenant.schema_name))

started = time.perf_counter()
with schema_context(tenant.schema_name):
    flushed = services.pageview_flush(max_batches=10**6)
    flush_seconds = time.perf_counter() - started
    rolled = services.pageview_rollup()
total_seconds = time.perf_counter() - started
connection.set_schema_to_public()
rolled_views, raw, pending = views()

dead_port = servers.free_port()
server, port = start_server({"REDIS_URL": f"redis://127.0.0.1:{dead_port}/0"})
try:
    wrk(port, WARMUP, tenant.api_key, script_path)
    direct = wrk(port, SECONDS, tenant.api_key, script_path)
    row("track, Redis down (straight to PostgreSQL)", direct)
finally:
    stop(server)
os.unlink(script_path)

print(f"\naccepted by the API (wrk, warm-up included): {accepted:,}; in the Redis stream: {buffered:,}")
print(f"flush: {flushed:,} events to PostgreSQL in {flush_seconds:.2f} s ({flushed / flush_seconds:,.0f} events/s); "
      f"rollup: {rolled:,} events; flush + rollup {total_seconds:.2f} s ({rolled / total_seconds:,.0f} events/s)")
print(f"rolled-up views: {rolled_views:,}; raw events: {raw:,}; not rolled up: {pending:,}")
if rolled_views == buffered >= accepted:
    print("every accepted event counted")
else:
    sys.exit("MISMATCH between accepted and counted events")
if SMOKE and (result["errors"] or direct["errors"]):
    sys.exit("smoke run failed: track answered other than 2xx")
