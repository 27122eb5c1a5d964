"""Read replicas: uncached public posts lists (PUBLIC_API_CACHE=0, every request reads
PostgreSQL) answered from a streaming replica vs from the primary alone, same run. A private
primary (initdb) and its replica (pg_basebackup -R) on free ports; 2 granian workers; wrk -t1
-c32, BENCH_SECONDS (15) after BENCH_WARMUP (5). On one machine both servers share its CPU:
this shows the replica path's own cost, not the capacity a second machine adds. BENCH_SMOKE=1:
30 posts, -c8, 2 s after 1 s.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
from apps.core.tests.hardening.services import PrivatePostgres, PrivateReplica, migrate  # noqa: E402
from bench import servers  # noqa: E402
from bench.common import REDIS_URL, announce, fresh_redis, knob  # noqa: E402
from bench.public_api_measure import header, measure  # noqa: E402

SECONDS = knob("BENCH_SECONDS", 15, 2)
WARMUP = knob("BENCH_WARMUP", 5, 1)
CONNECTIONS = knob("BENCH_CONNECTIONS", 32, 8)
WORKERS = knob("BENCH_WORKERS", 2)
POSTS = knob("BENCH_POSTS", 200, 30)
if not shutil.which("wrk"):
    sys.exit("wrk is not installed (make wrk)")

SEED = """
import json
from lifecycle.services import client_register
from apps.content.tests.factories import make_post
tenant = client_register(company_name="Bench", contact_name="Bench", contact_email="bench@example.com",
                         subdomain="bench", admin_username="bench", admin_email="bench@example.com",
                         admin_password="password123", plan="business", verified=True)
for n in range(POSTS):
    make_post(tenant, f"Post {n}", slug=f"post-{n}", status="published", content="<p>" + "text " * 300 + "</p>")
print("SEEDED " + json.dumps({"key": tenant.api_key}))
"""

primary = PrivatePostgres().init().start(durable=True)
replica = None
try:
    primary.createdb("cms")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": primary.url("cms"),
           "REDIS_URL": REDIS_URL, "CELERY_BROKER_URL": REDIS_URL, "CACHE_KEY_PREFIX": "bench-replica",
           "ROOT_DOMAIN": "localhost", "DEBUG": "0", "LOG_LEVEL": "WARNING", "PUBLIC_API_RATE_LIMIT": "1000000000",
           "PUBLIC_API_CACHE": "0", "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)])}
    migrate(env)
    fresh_redis(REDIS_URL, "bench-replica")
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", SEED.replace("POSTS", str(POSTS))], cwd=ROOT,
                         env=env, capture_output=True, text=True, check=True).stdout
    key = {"Host": "bench.localhost", "x-api-key": json.loads(out.split("SEEDED ", 1)[1])["key"]}
    replica = PrivateReplica().init_from(primary).start(durable=True)
    LIST = "/api/v1/posts?page=1&limit=10"
    announce()
    print(f"\nwrk -t1 -c{CONNECTIONS} {SECONDS}s after {WARMUP}s; {WORKERS} granian workers; reply cache off; "
          f"load average before: {os.getloadavg()[0]:.1f}\n", flush=True)
    header()
    results = {}
    for name, extra in (("posts list, uncached, primary only", {}),
                        ("posts list, uncached, read replica", {"DATABASE_REPLICA_URLS": replica.url("cms")})):
        server, port = servers.start_server("granian", {**env, **extra}, workers=WORKERS)
        try:
            results[name] = measure(name, port, LIST, key, seconds=SECONDS, warmup=WARMUP, connections=CONNECTIONS)
        finally:
            servers.stop(server)
    reads = replica.sql_value("cms", "SELECT sum(COALESCE(idx_scan, 0) + COALESCE(seq_scan, 0)) FROM "
                                     "pg_stat_user_tables WHERE relname = 'content_post'")
    print(f"  scans of content_post counted on the replica: {reads:,}", flush=True)
finally:
    if replica:
        replica.cleanup()
    primary.cleanup()
