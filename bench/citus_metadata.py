"""make bench-citus-metadata: what Citus's metadata costs as companies are added to the cluster
(docs/scaling.md, "Citus's metadata").

A private three-node Citus cluster (lifecycle/tests/citus_cluster.py, as `make bench-citus`),
migrate_schemas, then companies added level by level (BENCH_LEVELS, default 25,250,500;
BENCH_SMOKE=1: 3,6) as bench/loops.py makes them: the template's schema cloned by the product's
own clone (lifecycle.provisioning.schema_create_from_template; on Citus each schema is distributed
as a unit, each of its tables a shard on one worker) with the company's and domain's rows, one
transaction per company. At each level it prints:

- the companies made per second for the level's new companies (the clone on the cluster);
- Citus's metadata on the coordinator: rows of pg_dist_partition, pg_dist_shard, pg_dist_placement,
  pg_dist_schema, and the size on disk of the pg_dist_* tables;
- a routed read (a company's posts list, `SELECT ... FROM content_post ORDER BY id DESC LIMIT 10`
  on the company's search_path, on the coordinator): the first in a new session (Citus's metadata
  cache cold), then the median and p90 of BENCH_QUERIES reads spread over BENCH_COMPANIES_READ
  companies;
- the memory of that session's backend after reading those companies (pg_backend_memory_contexts:
  what a pooled connection that has served that many companies holds), and of a session that read
  one company.

Growth of these with the number of companies is what the sizing of docs/scaling.md needs; the run
is on one machine (every node shares its CPU), so latencies are the hop's, not more machines'.
"""
from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
from bench.common import announce, knob  # noqa: E402

LEVELS = [int(level) for level in knob("BENCH_LEVELS", "25,250,500", "3,6").split(",")]
QUERIES = knob("BENCH_QUERIES", 300, 30)
COMPANIES_READ = knob("BENCH_COMPANIES_READ", 50, 3)
READ = "SELECT id, title FROM content_post ORDER BY id DESC LIMIT 10"


def generate(first: int, last: int) -> None:
    """Companies meta-<first> .. meta-<last - 1>, one transaction each (a child process)."""
    import django

    django.setup()
    from django.db import transaction
    from django.utils import timezone

    from lifecycle.provisioning import schema_create_from_template, template_current
    from tenants.models import Client, Domain

    template = template_current()
    now = timezone.now()
    from django.db import connection

    for n in range(first, last):
        if n > first and n % 200 == 0:
            connection.close()  # a session that made schemas keeps their relations in its caches (bench/loops.py)
        with transaction.atomic():
            schema = f"t_meta_{n}"
            schema_create_from_template(schema, template)
            client = Client(schema_name=schema, subdomain=f"meta-{n}", name=f"Company {n}", contact_name="Bench",
                            contact_email=f"m{n}@example.com", status=Client.Status.ACTIVE,
                            subscription_plan="business", migrations_digest=template.migrations_digest,
                            email_verified_at=now)
            client.save()
            Domain(domain=f"meta-{n}.localhost", tenant=client, is_primary=True).save()


if len(sys.argv) == 4 and sys.argv[1] == "generate":
    generate(int(sys.argv[2]), int(sys.argv[3]))
    sys.exit(0)

import psycopg  # noqa: E402

from lifecycle.tests.citus_cluster import CitusCluster, citus_missing  # noqa: E402

if citus_missing():
    sys.exit(f"{citus_missing()}")


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def metadata(url: str) -> dict:
    with psycopg.connect(url, autocommit=True) as conn:
        counts = {table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                  for table in ("pg_dist_partition", "pg_dist_shard", "pg_dist_placement", "pg_dist_schema")}
        counts["bytes"] = conn.execute(
            "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = 'pg_catalog' AND c.relname LIKE 'pg_dist%' AND c.relkind = 'r'").fetchone()[0]
    return counts


def backend_bytes(conn) -> int:
    return conn.execute("SELECT sum(total_bytes) FROM pg_backend_memory_contexts").fetchone()[0]


def reads(url: str, companies: int) -> dict:
    """A new session's first read, then QUERIES reads over COMPANIES_READ companies; the session's memory."""
    chosen = random.Random(companies).sample(range(companies), min(COMPANIES_READ, companies))
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"SET search_path TO t_meta_{chosen[0]}, public")
        started = time.perf_counter()
        conn.execute(READ).fetchall()
        first = time.perf_counter() - started
        one = backend_bytes(conn)
        timings = []
        for n in range(QUERIES):
            conn.execute(f"SET search_path TO t_meta_{chosen[n % len(chosen)]}, public")
            started = time.perf_counter()
            conn.execute(READ).fetchall()
            timings.append(time.perf_counter() - started)
        many = backend_bytes(conn)
    return {"first": first * 1000, "median": statistics.median(timings) * 1000, "p90": pct(timings, 90) * 1000,
            "one": one, "many": many, "read": len(chosen)}


def run_levels(url: str, env: dict, levels: list[int]) -> list[dict]:
    """Companies added up to each level on the cluster at `url` (migrated), each level measured."""
    rows, made = [], 0
    for level in levels:
        started = time.perf_counter()
        subprocess.run([sys.executable, __file__, "generate", str(made), str(level)], cwd=ROOT, env=env,
                       check=True, timeout=24 * 3600)
        rate = (level - made) / (time.perf_counter() - started)
        made = level
        row = {"companies": level, "rate": rate, **metadata(url), **reads(url, level)}
        rows.append(row)
        print(f"{level:,} companies: {rate:.1f} made/s; {row['pg_dist_shard']:,} shards, "
              f"{row['pg_dist_placement']:,} placements, metadata {row['bytes'] / 2**20:.1f} MB; "
              f"read first {row['first']:.1f} ms, median {row['median']:.2f} ms, p90 {row['p90']:.2f} ms; "
              f"session {row['one'] / 2**20:.1f} MB after 1 company, {row['many'] / 2**20:.1f} MB after "
              f"{row['read']}", flush=True)
    return rows


def table(rows: list[dict]) -> None:
    print(f"\nCitus's metadata by companies on the cluster (coordinator and 2 workers on this machine; "
          f"reads on the coordinator, {QUERIES} per level over up to {COMPANIES_READ} companies):")
    print(f"{'companies':>10} {'made/s':>7} {'tables':>8} {'shards':>9} {'placements':>11} {'schemas':>8} "
          f"{'pg_dist MB':>10} {'1st read ms':>11} {'median ms':>9} {'p90 ms':>7} {'session MB 1':>12} "
          f"{'session MB n':>12}")
    for row in rows:
        print(f"{row['companies']:>10,} {row['rate']:>7.1f} {row['pg_dist_partition']:>8,} {row['pg_dist_shard']:>9,} "
              f"{row['pg_dist_placement']:>11,} {row['pg_dist_schema']:>8,} {row['bytes'] / 2**20:>10.1f} "
              f"{row['first']:>11.1f} {row['median']:>9.2f} {row['p90']:>7.2f} {row['one'] / 2**20:>12.1f} "
              f"{row['many'] / 2**20:>12.1f}")
    if len(rows) >= 2:
        low, high = rows[0], rows[-1]
        added = high["companies"] - low["companies"]
        print(f"per company added: {(high['bytes'] - low['bytes']) / added / 1024:.1f} KB of pg_dist_* on the "
              f"coordinator, {(high['pg_dist_shard'] - low['pg_dist_shard']) / added:.0f} shards; the routed "
              f"read's median {low['median']:.2f} -> {high['median']:.2f} ms from {low['companies']:,} to "
              f"{high['companies']:,} companies")


def main() -> None:
    announce()
    cluster = CitusCluster(workers=2).start()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": cluster.url(),
           "ROOT_DOMAIN": "localhost", "DEBUG": "0", "LOG_LEVEL": "WARNING", "SCHEMA_POOL_SIZE": "0",
           "CACHE_KEY_PREFIX": "bench-citus-metadata", "CELERY_TASK_DEFAULT_QUEUE": "cms-bench-citus-metadata",
           "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)])}
    try:
        subprocess.run([sys.executable, "manage.py", "migrate_schemas", "--noinput", "-v", "0"], cwd=ROOT, env=env,
                       check=True, stdout=subprocess.DEVNULL, timeout=3600)
        rows = run_levels(cluster.url(), env, LEVELS)
    finally:
        cluster.cleanup()
    table(rows)


if __name__ == "__main__":
    main()
