"""One PostgreSQL vs a three-node Citus cluster (a coordinator and two workers), same machine,
same run (make bench-citus; docs/scaling.md). Each is a private cluster (initdb, free ports,
durable settings); the Citus one is joined by deploy/citus/setup.sql (lifecycle/tests/citus_cluster.py).

On each: migrate_schemas from empty; BENCH_SIGNUPS (20) sign-ups through the sign-up service
with the spare pool empty (the template's DDL run) and as many taking a spare schema; one
company with BENCH_POSTS (200) published posts; BENCH_REQUESTS (300) sequential uncached
requests of the public posts list and of the dashboard's posts list (gunicorn, 1 sync worker:
the latency of one request, not throughput). On Citus: the time to move that company to the
other worker (manage.py tenant_move, logical replication, online).

All nodes share this machine's CPU: the figures show what the extra hop coordinator -> worker
costs, not the capacity more machines add. BENCH_SMOKE=1: 3 sign-ups, 20 posts, 20 requests.
"""
from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
from apps.core.tests.hardening.services import PrivatePostgres  # noqa: E402
from bench import common, servers  # noqa: E402
from bench.common import REDIS_URL, announce, fresh_redis, knob  # noqa: E402
from lifecycle.tests.citus_cluster import CitusCluster, citus_missing  # noqa: E402

SIGNUPS = knob("BENCH_SIGNUPS", 20, 3)
POSTS = knob("BENCH_POSTS", 200, 20)
REQUESTS = knob("BENCH_REQUESTS", 300, 20)
PASSWORD = "password12345"
if citus_missing():
    sys.exit(f"{citus_missing()}")

SEED = """
import json, statistics, time
from lifecycle.provisioning import schema_pool_refill
from lifecycle.services import client_register
from apps.content.tests.factories import make_post

def sign_ups(prefix, count):
    timings = []
    for n in range(count):
        started = time.perf_counter()
        client_register(company_name=f"{prefix} {n}", contact_name="Bench", contact_email=f"{prefix}{n}@example.com",
                        subdomain=f"{prefix}-{n}", admin_username="admin", admin_email=f"{prefix}{n}@example.com",
                        admin_password="PASSWORD", verified=True)
        timings.append(time.perf_counter() - started)
    return timings

empty = sign_ups("clone", SIGNUPS)
schema_pool_refill(size=SIGNUPS)
spare = sign_ups("spare", SIGNUPS)
tenant = client_register(company_name="Bench", contact_name="Bench", contact_email="bench@example.com",
                         subdomain="bench", admin_username="bench", admin_email="bench@example.com",
                         admin_password="PASSWORD", plan="business", verified=True)
for n in range(POSTS):
    make_post(tenant, f"Post {n}", slug=f"post-{n}", status="published", content="<p>" + "text " * 300 + "</p>")
print("SEEDED " + json.dumps({"key": tenant.api_key, "schema": tenant.schema_name, "empty": empty, "spare": spare}))
"""


def median_p90(timings: list[float]) -> tuple[float, float]:
    """Median and p90 in milliseconds."""
    median, p90 = common.median_p90(timings)
    return median * 1000, p90 * 1000


def request_timings(port: int, path: str, headers: dict[str, str]) -> tuple[float, float]:
    return median_p90(common.request_timings(port, path, headers, host="bench.localhost", requests=REQUESTS,
                                             timeout=60))


def manage(env: dict, *args: str) -> str:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=True, timeout=3600).stdout


def measure(name: str, database_url: str) -> dict:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": database_url,
           "REDIS_URL": REDIS_URL, "CELERY_BROKER_URL": REDIS_URL, "CACHE_KEY_PREFIX": f"bench-citus-{name}",
           "CELERY_TASK_DEFAULT_QUEUE": f"cms-bench-citus-{name}", "ROOT_DOMAIN": "localhost", "DEBUG": "0",
           "LOG_LEVEL": "WARNING", "PUBLIC_API_RATE_LIMIT": "1000000000", "PUBLIC_API_CACHE": "0",
           "SCHEMA_POOL_SIZE": "0", "FAST_PASSWORD_HASHER": "1",
           "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)])}
    fresh_redis(REDIS_URL, f"bench-citus-{name}", f"cms-bench-citus-{name}")
    started = time.perf_counter()
    manage(env, "migrate_schemas", "--noinput", "-v", "0")
    result = {"migrate": time.perf_counter() - started}
    code = SEED.replace("SIGNUPS", str(SIGNUPS)).replace("POSTS", str(POSTS)).replace("PASSWORD", PASSWORD)
    seeded = json.loads(manage(env, "shell", "-c", code).split("SEEDED ", 1)[1])
    result.update(schema=seeded["schema"], empty=median_p90(seeded["empty"]), spare=median_p90(seeded["spare"]))
    server, port = servers.start_server("gunicorn", env, workers=1)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("POST", "/api/auth/login", body=json.dumps({"email": "bench@example.com", "password": PASSWORD}),
                     headers={"Host": "bench.localhost", "Content-Type": "application/json"})
        token = json.loads(conn.getresponse().read())["token"]
        result["public"] = request_timings(port, "/api/v1/posts?page=1&limit=10", {"x-api-key": seeded["key"]})
        result["dashboard"] = request_timings(port, "/api/posts?page=1&limit=10", {"Authorization": f"Bearer {token}"})
    finally:
        servers.stop(server)
    result["env"] = env
    return result


announce()
print(f"{SIGNUPS} sign-ups each way, {POSTS} posts, {REQUESTS} requests per list; "
      f"load average before: {os.getloadavg()[0]:.1f}\n", flush=True)
results = {}
single = PrivatePostgres(prefix="cms-bench-single-").init().start(durable=True)
try:
    results["one PostgreSQL"] = measure("single", single.createdb("cms"))
finally:
    single.cleanup()
cluster = CitusCluster(durable=True).start()
try:
    results["Citus, 1 + 2 nodes"] = citus = measure("cluster", cluster.url())
    source = cluster.worker_of(citus["schema"])
    target = next(worker.port for worker in cluster.workers if worker.port != source)
    started = time.perf_counter()
    manage(citus["env"], "tenant_move", "bench", f"127.0.0.1:{target}")
    citus["move"] = time.perf_counter() - started
    if cluster.worker_of(citus["schema"]) != target:
        sys.exit("the company did not move")
finally:
    cluster.cleanup()

names = list(results)
print(f"{'':58} " + " ".join(f"{name:>20}" for name in names))
rows = [
    ("migrate_schemas from empty, s", lambda r: f"{r['migrate']:.1f}"),
    ("sign-up median / p90, pool empty (template DDL), ms", lambda r: "%.0f / %.0f" % r["empty"]),
    ("sign-up median / p90, spare schema, ms", lambda r: "%.0f / %.0f" % r["spare"]),
    ("public GET /api/v1/posts uncached median / p90, ms", lambda r: "%.1f / %.1f" % r["public"]),
    ("dashboard GET /api/posts median / p90, ms", lambda r: "%.1f / %.1f" % r["dashboard"]),
    (f"move one company ({POSTS} posts) to the other worker, s", lambda r: f"{r['move']:.1f}" if "move" in r else "-"),
]
for label, value in rows:
    print(f"{label:58} " + " ".join(f"{value(results[name]):>20}" for name in names))
print(f"\nload average after: {os.getloadavg()[0]:.1f}")
