"""The HTTP cache tier: cache hits of the public posts list through Varnish (deploy/varnish,
started here on a free port in front of the app) against the bare WSGI app returning the same
bytes (the ceiling of a Python server), and the app's own fast path, in the same run. wrk -t1
-c32, BENCH_SECONDS (15) after BENCH_WARMUP (5); BENCH_SMOKE=1: -c8, 2 s after 1 s. Own database
(BENCH_DATABASE, default cms_bench_edge) and Redis prefix.
"""
from __future__ import annotations

import os
import shutil
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
from bench import servers  # noqa: E402
from bench.common import REDIS_URL, announce, fresh_database, fresh_redis, knob  # noqa: E402
from bench.servers import stop  # noqa: E402

DB_URL = fresh_database(os.environ.get("BENCH_DATABASE", "cms_bench_edge"))
SECONDS = knob("BENCH_SECONDS", 15, 2)
WARMUP = knob("BENCH_WARMUP", 5, 1)
CONNECTIONS = knob("BENCH_CONNECTIONS", 32, 8)
WORKERS = knob("BENCH_WORKERS", 2)
SERVER_ENV = {
    **os.environ, "DATABASE_URL": DB_URL, "REDIS_URL": REDIS_URL, "CELERY_BROKER_URL": REDIS_URL,
    "CACHE_KEY_PREFIX": "bench-edge", "DJANGO_SETTINGS_MODULE": "config.settings", "ROOT_DOMAIN": "localhost",
    "DEBUG": "0", "LOG_LEVEL": "WARNING", "PUBLIC_API_RATE_LIMIT": "1000000000",
}
os.environ.update({k: v for k, v in SERVER_ENV.items()})
if not shutil.which("wrk"):
    sys.exit("wrk is not installed (make wrk)")

from apps.core.tests.hardening.services import Varnish, varnishd_bin  # noqa: E402
from bench.public_api_measure import measure, header  # noqa: E402

if varnishd_bin() is None:
    sys.exit("varnishd with varnish-modules is not installed (make varnish)")

import django  # noqa: E402

django.setup()
from django.core.management import call_command  # noqa: E402

from apps.content.tests.factories import make_post  # noqa: E402
from lifecycle.services import client_register  # noqa: E402

call_command("migrate_schemas", interactive=False, verbosity=0)
fresh_redis(REDIS_URL, "bench-edge")
tenant = client_register(company_name="Bench", contact_name="Bench", contact_email="bench@example.com",
                         subdomain="bench", admin_username="bench", admin_email="bench@example.com",
                         admin_password="password123", plan="business", verified=True)
for n in range(30):
    make_post(tenant, f"Post {n}", slug=f"post-{n}", status="published", content="<p>" + "text " * 300 + "</p>")

LIST = "/api/v1/posts?page=1&limit=10"
key = {"Host": "bench.localhost", "x-api-key": tenant.api_key}
app, app_port = servers.start_server("granian", SERVER_ENV, workers=WORKERS)
varnish = Varnish(app_port, rate_limit=(1_000_000_000, 60)).start()
try:
    with urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{app_port}{LIST}", headers=key)) as reply:
        body = reply.read()
    body_file = ROOT / ".data" / "bench-edge-body.json"
    body_file.parent.mkdir(exist_ok=True)
    body_file.write_bytes(body)
    announce()
    print(f"\nwrk -t1 -c{CONNECTIONS} {SECONDS}s after {WARMUP}s; {WORKERS} granian workers; body {len(body):,} bytes; "
          f"load average before: {os.getloadavg()[0]:.1f}\n", flush=True)
    header()
    edge = measure("posts list, cached, through Varnish", varnish.port, LIST, key, seconds=SECONDS, warmup=WARMUP,
                   connections=CONNECTIONS)
    fast = measure("posts list, cached, app's fast path (no Varnish)", app_port, LIST, key, seconds=SECONDS,
                   warmup=WARMUP, connections=CONNECTIONS)
finally:
    varnish.stop()
    stop(app)
bare, bare_port = servers.start_server("granian", {**SERVER_ENV, "BENCH_BARE_BODY": str(body_file)}, workers=WORKERS,
                                       app="bare_wsgi:application")
try:
    ceiling = measure("reference: bare WSGI app, same bytes", bare_port, LIST, key, seconds=SECONDS, warmup=WARMUP,
                      connections=CONNECTIONS)
finally:
    stop(bare)
print(f"  Varnish hits = {edge['rps'] / ceiling['rps']:.0%} of the bare app; "
      f"the app's fast path = {fast['rps'] / ceiling['rps']:.0%}", flush=True)
