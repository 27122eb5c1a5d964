"""One PostgreSQL vs a three-node Citus cluster (a coordinator and two workers), same machine,
same run (make bench-citus; docs/scaling.md). Each is a private cluster (initdb, free ports,
durable settings); the Citus one is joined by deploy/citus/setup.sql (lifecycle/tests/citus_cluster.py).

On each: migrate_schemas from empty; BENCH_SIGNUPS (20) sign-ups through the sign-up service
with the spare pool empty (the template's DDL run) and as many taking a spare schema; one
company with BENCH_POSTS (200) published posts; BENCH_REQUESTS (300) sequential uncached
requests of the public posts list and of the dashboard's posts list (gunicorn, 1 sync worker:
the latency of one request, not throughput). Content writes: BENCH_WRITERS (8) writers, each
creating published posts in a company of its own through the dashboard API for BENCH_WRITE_SECONDS
(20) (gunicorn, one sync worker per writer; half the companies with a webhook endpoint, whose
writes also queue a delivery in the outbox): posts per second in all, latency, what the server's sessions
waited on meanwhile (pg_stat_activity sampled every 20 ms on the node the app talks to) and, on
Citus, how many transactions committed in two phases (coordinator and worker: pg_dist_transaction's
records, kept for the run).
On Citus: the time to move that company to the other worker (manage.py tenant_move, logical
replication, online); then Citus's metadata as companies are added (BENCH_METADATA_LEVELS, 20,100;
bench/citus_metadata.py, whose own target, make bench-citus-metadata, goes to 500).

All nodes share this machine's CPU: the figures show what the extra hop coordinator -> worker
costs, not the capacity more machines add. BENCH_SMOKE=1: 3 sign-ups, 20 posts, 20 requests, 2 writers for 3 s.
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
WRITERS = knob("BENCH_WRITERS", 8, 2)
WRITE_SECONDS = knob("BENCH_WRITE_SECONDS", 20.0, 3.0)
METADATA_LEVELS = [int(level) for level in knob("BENCH_METADATA_LEVELS", "20,100", "3,6").split(",")]
PASSWORD = "password12345"
if citus_missing():
    sys.exit(f"{citus_missing()}")

SEED = """
import json, statistics, time
from lifecycle.provisioning import schema_pool_refill
from lifecycle.services import client_register
from apps.content.tests.factories import make_media, make_post

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
from django_tenants.utils import schema_context
from apps.content.models import Category
from apps.webhooks.models import WebhookEndpoint
writers = []
for n in range(WRITERS):
    writer = client_register(company_name=f"Writer {n}", contact_name="Bench", contact_email=f"w{n}@example.com",
                             subdomain=f"writer-{n}", admin_username="writer", admin_email=f"w{n}@example.com",
                             admin_password="PASSWORD", plan="business", verified=True)
    with schema_context(writer.schema_name):
        category = Category.objects.create(name="News", slug="news")
        if n % 2 == 0:  # half the companies have a webhook: their writes queue a delivery in the outbox
            WebhookEndpoint.objects.create(url="https://hooks.example.com/cms", events=["post.published"],
                                           secret="s" * 32)
    media = make_media(writer)
    writers.append({"host": f"writer-{n}.localhost", "email": f"w{n}@example.com", "category": str(category.pk),
                    "media": str(media.pk)})
print("SEEDED " + json.dumps({"key": tenant.api_key, "schema": tenant.schema_name, "empty": empty, "spare": spare,
                              "writers": writers}))
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
    code = (SEED.replace("SIGNUPS", str(SIGNUPS)).replace("POSTS", str(POSTS)).replace("PASSWORD", PASSWORD)
            .replace("WRITERS", str(WRITERS)))
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
    server, port = servers.start_server("gunicorn", env, workers=WRITERS)
    try:
        result["writes"] = writes(port, seeded["writers"], database_url)
    finally:
        servers.stop(server)
    result["env"] = env
    return result


def writes(port: int, writers: list[dict], database_url: str) -> dict:
    """WRITERS threads, each creating published posts in its own company for WRITE_SECONDS."""
    import threading
    from collections import Counter

    import psycopg

    def login(writer: dict) -> str:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("POST", "/api/auth/login", body=json.dumps({"email": writer["email"], "password": PASSWORD}),
                     headers={"Host": writer["host"], "Content-Type": "application/json"})
        return json.loads(conn.getresponse().read())["token"]

    tokens = [login(writer) for writer in writers]
    with psycopg.connect(database_url, autocommit=True) as conn:
        citus = conn.execute("SELECT count(*) FROM pg_extension WHERE extname = 'citus'").fetchone()[0] == 1
        if citus:  # keep the records of two-phase commits for counting (Citus removes them every minute)
            conn.execute("ALTER SYSTEM SET citus.recover_2pc_interval = -1")
            conn.execute("SELECT pg_reload_conf()")
            time.sleep(1)
            prepared_before = conn.execute("SELECT count(*) FROM pg_dist_transaction").fetchone()[0]
    timings: list[float] = []
    failures: list[str] = []
    waits: Counter = Counter()
    samples = [0]
    stop = threading.Event()
    barrier = threading.Barrier(len(writers) + 1)

    def write(writer: dict, token: str) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        headers = {"Host": writer["host"], "Content-Type": "application/json", "Authorization": f"Bearer {token}"}
        barrier.wait()
        n = 0
        while not stop.is_set():
            n += 1
            body = json.dumps({"postTitle": f"Written {n}", "postContent": "<p>" + "text " * 100 + "</p>",
                               "postExcerpt": "Excerpt", "postStatus": "published", "categories": [writer["category"]],
                               "featuredMediaId": writer["media"]})
            started = time.perf_counter()
            conn.request("POST", "/api/posts", body=body, headers=headers)
            response = conn.getresponse()
            text = response.read()
            if response.status == 201:
                timings.append(time.perf_counter() - started)
            else:
                failures.append(f"{response.status} {text[:200]!r}")

    def sample() -> None:
        with psycopg.connect(database_url, autocommit=True) as conn:
            while not stop.is_set():
                samples[0] += 1
                for kind, event, query in conn.execute(
                        "SELECT wait_event_type, wait_event, left(regexp_replace(query, '\\s+', ' ', 'g'), 70) "
                        "FROM pg_stat_activity WHERE state = 'active' AND wait_event IS NOT NULL "
                        "AND backend_type = 'client backend' AND pid <> pg_backend_pid()"):
                    waits[f"{kind}:{event}: {query}"] += 1
                time.sleep(0.02)

    threads = [threading.Thread(target=write, args=pair) for pair in zip(writers, tokens)]
    sampler = threading.Thread(target=sample)
    for thread in threads:
        thread.start()
    barrier.wait()
    started = time.perf_counter()
    sampler.start()
    time.sleep(WRITE_SECONDS)
    stop.set()
    for thread in [*threads, sampler]:
        thread.join(120)
    elapsed = time.perf_counter() - started
    if failures:
        sys.exit(f"{len(failures)} writes failed, e.g. {failures[0]}")
    two_phase = None
    if citus:
        with psycopg.connect(database_url, autocommit=True) as conn:
            two_phase = conn.execute("SELECT count(*) FROM pg_dist_transaction").fetchone()[0] - prepared_before
            conn.execute("ALTER SYSTEM RESET citus.recover_2pc_interval")
            conn.execute("SELECT pg_reload_conf()")
    return {"per_second": len(timings) / elapsed, "latency": median_p90(timings), "count": len(timings),
            "two_phase": two_phase,
            "waits": [(what, count / max(samples[0], 1)) for what, count in waits.most_common(5)]}


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
    # Citus's metadata as companies are added (make bench-citus-metadata alone goes to 500)
    from bench import citus_metadata

    metadata_rows = citus_metadata.run_levels(cluster.url(), citus["env"], METADATA_LEVELS)
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
    (f"content writes, {WRITERS} writers in {WRITERS} companies, posts/s", lambda r: f"{r['writes']['per_second']:.1f}"),
    ("  a write's median / p90, ms", lambda r: "%.0f / %.0f" % r["writes"]["latency"]),
    ("  transactions committed in two phases (Citus) / writes", lambda r: "-" if r["writes"]["two_phase"] is None
     else f"{r['writes']['two_phase']} / {r['writes']['count']}"),
    (f"move one company ({POSTS} posts) to the other worker, s", lambda r: f"{r['move']:.1f}" if "move" in r else "-"),
]
for label, value in rows:
    print(f"{label:58} " + " ".join(f"{value(results[name]):>20}" for name in names))
for name in names:
    print(f"\n{name}: what the sessions waited on during the writes (sessions waiting, mean over samples)")
    for what, mean in results[name]["writes"]["waits"]:
        print(f"  {mean:5.2f}  {what}")
citus_metadata.table(metadata_rows)
print(f"(beside the {2 * SIGNUPS + 1 + WRITERS} companies of the measurements above)")
print(f"\nload average after: {os.getloadavg()[0]:.1f}")
