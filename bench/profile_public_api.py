"""Where a public API request's time goes (docs/performance.md), for three requests: a cached
posts list answered by the fast path, the uncached posts list (reply cache off: the fast path
builds it) and a search, with BENCH_POSTS (10,000) posts.

Private services, so that the figures are this benchmark's alone: a PostgreSQL cluster with
pg_stat_statements loaded and a redis-server, both on free ports. One granian worker (as the
image serves it, python -m config.serve) under wrk -t1 -c32; per scenario:

1. wrk alone (BENCH_SECONDS): requests/s, p50/p99, and the worker's CPU per request;
2. wrk again with py-spy sampling the worker (--idle: time waiting on PostgreSQL or Redis counts),
   its samples sorted into parts of a request by the innermost frame that names one (PARTS);
3. what PostgreSQL spent per statement (pg_stat_statements) and Redis per command (INFO
   commandstats), per request.

4. cProfile of the same requests sent straight to the WSGI application in this process, one after
   the other (no HTTP server, no other request competing): milliseconds per request of each part
   (CALLS), wall clock and CPU (the CPU column is what a machine shared with other work distorts
   least).

Then EXPLAIN (ANALYZE, BUFFERS) of the list's and the search's statements, run as the app runs
them (prepared, generic plan). BENCH_SMOKE=1: 500 posts, 2 s runs. Needs wrk and py-spy (make
profile-public-api installs both).
"""
from __future__ import annotations

import cProfile
import io
import os
import pstats
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
from apps.core.tests.hardening.services import PrivatePostgres, PrivateRedis  # noqa: E402
from bench import servers  # noqa: E402
from bench.common import announce, knob  # noqa: E402
from bench.public_api_measure import WIDTH, header, measure  # noqa: E402

POSTS = knob("BENCH_POSTS", 10000, 500)
SECONDS = knob("BENCH_SECONDS", 15, 2)
WARMUP = knob("BENCH_WARMUP", 5, 1)
CONNECTIONS = knob("BENCH_CONNECTIONS", 32, 8)
PY_SPY = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
for tool in ("wrk", PY_SPY):
    if not shutil.which(tool):
        sys.exit(f"{tool} is not installed (make profile-public-api installs it)")

# Parts of a request, each known by a frame (a file path fragment and, optionally, function names);
# a sample counts for the innermost frame that names a part, from the leaf up.
PARTS = [
    ("SQL: psycopg, waiting on PostgreSQL", "psycopg/", None),
    ("Redis round trip (client and server)", "redis/", None),
    ("Redis round trip (client and server)", "apps/public_api/redis_thread.py", None),
    ("JSON encoding of the reply", "apps/public_api/encoding.py", {"encode", "etag_of"}),
    ("JSON encoding of the reply", "json/", None),
    ("rows to posts (selectors: dicts, times, image URLs)", "apps/public_api/selectors.py",
     {"posts_page_summaries", "_summary", "_read", "_image", "_author", "__call__"}),
    ("rows to posts (selectors: dicts, times, image URLs)", "apps/content/post_fields.py", None),
    ("rows to posts (selectors: dicts, times, image URLs)", "apps/content/schemas.py", None),
    ("SQL: statement choice and parameters (selectors, db)", "apps/public_api/selectors.py", None),
    ("SQL: statement choice and parameters (selectors, db)", "apps/core/db.py", None),
    ("SQL: statement choice and parameters (selectors, db)", "django/db/", None),
    ("query parsing (direct.listing, request.parse_list)", "apps/public_api/direct.py", {"listing"}),
    ("query parsing (direct.listing, request.parse_list)", "apps/public_api/request.py", {"parse_list"}),
    ("key check (key hash; compared inside the Redis script)", "apps/public_api/keys.py", None),
    ("reply headers (surrogate keys, security, request id)", "apps/public_api/request.py", None),
    ("reply headers (surrogate keys, security, request id)", "apps/core/", None),
    ("the public API's own code (core, fastpath, cache, direct)", "apps/public_api/", None),
    ("Django (middleware, URL resolving, ninja)", "django/", None),
    ("Django (middleware, URL resolving, ninja)", "ninja/", None),
]
APP_PART = "the rest of the application"
# The request thread in granian's own code: reading and parsing requests, writing replies, and
# waiting for the next request (none waits long with the worker saturated).
SERVER_PART = "WSGI server (granian: HTTP, between requests)"
_FRAME = re.compile(r"^(?P<function>.*?) \((?P<file>.*?)(?::\d+)?\)$")


def part_of(stack: list[str]) -> str:
    if not any("granian/wsgi.py" in frame for frame in stack):
        return SERVER_PART
    for frame in reversed(stack):
        match = _FRAME.match(frame)
        if not match:
            continue
        function, file = match.group("function"), match.group("file")
        for name, fragment, functions in PARTS:
            if fragment in file and (functions is None or function in functions):
                return name
    return APP_PART


def worker_pids(server: subprocess.Popen) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "-g", str(server.pid)], capture_output=True, text=True).stdout
    return [int(pid) for pid in out.split() if int(pid) != server.pid]


def cpu_seconds(pids: list[int]) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def sampled_parts(server: subprocess.Popen, port: int, path: str, headers: dict) -> tuple[Counter, int]:
    """wrk for SECONDS while py-spy samples the server's processes: samples per part, requests."""
    with tempfile.NamedTemporaryFile(suffix=".txt", delete=False) as handle:
        output = handle.name
    spy = subprocess.Popen([PY_SPY, "record", "--pid", str(server.pid), "--subprocesses", "--idle", "--threads",
                            "--rate", "100", "--duration", str(SECONDS), "--format", "raw", "--output", output],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(1)  # py-spy attaches
    command = ["wrk", "-t1", f"-c{CONNECTIONS}", f"-d{SECONDS}s"]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    out = subprocess.run([*command, f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True,
                         check=True).stdout
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    _, errors = spy.communicate(timeout=SECONDS + 60)
    if spy.returncode:
        sys.exit(f"py-spy failed: {errors}")
    stacks = []
    for line in Path(output).read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        stacks.append((stack.split(";"), int(count)))
    os.unlink(output)
    # Only the threads that served requests (the worker's other threads idle all along).
    serving = {_thread(frames) for frames, _ in stacks if any("granian/wsgi.py" in frame for frame in frames)}
    parts: Counter = Counter()
    for frames, count in stacks:
        if _thread(frames) in serving:
            parts[part_of(frames)] += count
    return parts, requests


def _thread(frames: list[str]) -> str:
    """The process and thread of a py-spy stack (--subprocesses --threads)."""
    return ";".join(frame for frame in frames if frame.startswith(("process ", "thread ")))


def statements(pg: PrivatePostgres, requests: int) -> list[str]:
    """The statements PostgreSQL ran since the last reset, most time first, per request."""
    rows = pg.sql("cms", "SELECT calls, total_exec_time, mean_exec_time, rows, shared_blks_hit, shared_blks_read, "
                         "query FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = "
                         "'cms') ORDER BY total_exec_time DESC LIMIT 6")
    lines = []
    for calls, total, mean, count, hit, read, query in rows:
        if calls < requests / 100:
            continue
        text = re.sub(r"\s+", " ", query)
        lines.append(f"    {calls / requests:5.2f} per request, {mean:6.3f} ms each (server), "
                     f"{(hit + read) / calls:6.1f} buffers each ({read} read from disk), "
                     f"{count / calls:4.1f} rows: {text[:150]}{'...' if len(text) > 150 else ''}")
    return lines


def redis_commands(client, before: dict, requests: int) -> list[str]:
    lines = []
    for name, stats in sorted(client.info("commandstats").items()):
        calls = stats["calls"] - before.get(name, {}).get("calls", 0)
        usec = stats["usec"] - before.get(name, {}).get("usec", 0)
        if calls >= requests / 100:
            lines.append(f"    {name.removeprefix('cmdstat_')}: {calls / requests:.2f} per request, "
                         f"{usec / calls:.1f} us each inside Redis")
    return lines


# Parts of a request in the cProfile pass: the functions whose cumulative time is that part.
CALLS = [
    ("whole request in the application (fast path's __call__)", "apps/public_api/fastpath.py", "__call__"),
    ("  the decision path (core.answer: key, limit, cache, build)", "apps/public_api/core.py", "answer"),
    ("  query parsing (direct.listing; lru-cached per query)", "apps/public_api/direct.py", "listing"),
    ("  key hash (the hash is compared inside the Redis script)", "apps/public_api/keys.py", "key_hash"),
    ("  Redis round trips (lookup script; store on a miss)", "apps/public_api/redis_thread.py", "evalsha"),
    ("  SQL: connection health check (SELECT 1)", "django/db/backends/base/base.py", "close_if_health_check_failed"),
    ("  SQL: the page's prepared statement", "apps/core/db.py", "fetch_prepared"),
    ("  rows to posts (selectors.posts_page_summaries)", "apps/public_api/selectors.py", "posts_page_summaries"),
    ("  JSON encoding (encoding.encode)", "apps/public_api/encoding.py", "encode"),
    ("  ETag (encoding.etag_of)", "apps/public_api/encoding.py", "etag_of"),
    ("  reply headers (request.edge_tag_headers, EdgeHeaders.of)", "apps/public_api/request.py", "edge_tag_headers"),
    ("  reply headers (request.edge_tag_headers, EdgeHeaders.of)", "apps/public_api/request.py", "of"),
]


def in_process(path: str, headers: dict, *, cache_on: bool, requests: int) -> list[str]:
    """The request sent `requests` times straight to the WSGI application under cProfile (wall
    clock timer), then timed again without it (wall and CPU): ms per request of each part."""
    from django.test import override_settings

    from apps.public_api.wsgi import application

    route, _, query = path.partition("?")
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": route, "QUERY_STRING": query, "SERVER_NAME": "127.0.0.1",
               "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1", "wsgi.url_scheme": "http",
               "wsgi.errors": sys.stderr, **{f"HTTP_{name.upper().replace('-', '_')}": value
                                             for name, value in headers.items()}}
    statuses = Counter()

    def call() -> None:
        def start_response(status, reply_headers, exc_info=None):
            statuses[status] += 1
        b"".join(application({**environ, "wsgi.input": io.BytesIO()}, start_response))

    with override_settings(PUBLIC_API_CACHE=cache_on):
        for _ in range(20):  # warm: statements prepared, caches filled
            call()
        profiles = []
        for timer in (time.perf_counter, time.thread_time):
            profiler = cProfile.Profile(timer)
            profiler.enable()
            for _ in range(requests):
                call()
            profiler.disable()
            profiles.append(pstats.Stats(profiler, stream=io.StringIO()).stats)
        wall, cpu = time.perf_counter(), time.thread_time()
        for _ in range(requests):
            call()
        wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
    if set(statuses) != {"200 OK"}:
        sys.exit(f"in-process requests answered {dict(statuses)}")
    spent: dict[str, list[float]] = {}
    for label, file, function in CALLS:
        for n, stats in enumerate(profiles):
            total = sum(values[3] for (path_, _, name), values in stats.items()
                        if path_.endswith(file) and name == function)
            spent.setdefault(label, [0.0, 0.0])[n] += total
    lines = [f"    {label:<{WIDTH - 4}} {wall_s * 1000 / requests:7.3f} ms {cpu_s * 1000 / requests:7.3f} ms"
             for label, (wall_s, cpu_s) in spent.items()]
    lines.append(f"    {'the whole request without the profiler':<{WIDTH - 4}} {wall * 1000 / requests:7.3f} ms "
                 f"{cpu * 1000 / requests:7.3f} ms")
    return lines


def main() -> None:
    announce()
    pg = PrivatePostgres().init()
    with (pg.data / "postgresql.conf").open("a") as conf:
        conf.write("shared_preload_libraries = 'pg_stat_statements'\npg_stat_statements.track = all\n"
                   "track_io_timing = on\n")
    pg.start(durable=True)
    redis_server = PrivateRedis().start()
    server = None
    try:
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": pg.createdb("cms"),
               "REDIS_URL": redis_server.url, "CELERY_BROKER_URL": redis_server.url, "CACHE_KEY_PREFIX": "profile",
               "ROOT_DOMAIN": "localhost", "DEBUG": "0", "LOG_LEVEL": "WARNING",
               "PUBLIC_API_RATE_LIMIT": "1000000000", "WEB_ROUTES": "content"}
        os.environ.update(env)
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection

        from bench import post_text, public_api_data
        from lifecycle.services import client_register

        call_command("migrate_schemas", interactive=False, verbosity=0)
        tenant = client_register(company_name="Profile", contact_name="Bench", contact_email="bench@example.com",
                                 subdomain="bench", admin_username="bench", admin_email="bench@example.com",
                                 admin_password="password123", plan="business", verified=True)
        public_api_data.seed(tenant.schema_name, 0, POSTS, zephyr=post_text.zephyr_posts(POSTS))
        pg.sql("cms", "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        key = {"Host": "bench.localhost", "x-api-key": tenant.api_key}
        scenarios = [
            ("(a) posts list, cached: fast-path hit", "1", "/api/v1/posts?page=1&limit=10"),
            ("(b) posts list, uncached (cache off)", "0", "/api/v1/posts?page=1&limit=10"),
            ("(c) search 'zephyr' (15 matches), uncached", "0", "/api/v1/posts?search=zephyr"),
            ("(c) search 'topic42' (~2% of posts), uncached", "0", "/api/v1/posts?search=topic42"),
        ]
        print(f"\n{POSTS:,} posts; 1 granian worker (python -m config.serve, WEB_ROUTES=content); wrk -t1 "
              f"-c{CONNECTIONS} {SECONDS}s after {WARMUP}s; private PostgreSQL (pg_stat_statements) and Redis; "
              f"load average before: {os.getloadavg()[0]:.1f}\n", flush=True)
        reports = []
        header()
        for name, cache_on, path in scenarios:
            server, port = servers.start_server("granian", {**env, "PUBLIC_API_CACHE": cache_on}, workers=1)
            try:
                pids = worker_pids(server)
                cpu = cpu_seconds(pids)
                result = measure(name, port, path, key, seconds=SECONDS, warmup=WARMUP, connections=CONNECTIONS)
                cpu = cpu_seconds(pids) - cpu
                requests = result["requests"] or 1
                pg.sql("cms", "SELECT pg_stat_statements_reset()")
                client = redis_server.client()
                before = client.info("commandstats")
                parts, sampled = sampled_parts(server, port, path, key)
                sampled = max(1, sampled)
                reports.append((name, result, cpu * 1000 / requests, parts, statements(pg, sampled),
                                redis_commands(client, before, sampled),
                                in_process(path, key, cache_on=cache_on == "1", requests=knob("BENCH_CALLS", 500, 50))))
            finally:
                servers.stop(server)
                server = None
        for name, result, cpu_ms, parts, sql_lines, redis_lines, call_lines in reports:
            total = sum(parts.values()) or 1
            wall_ms = 1000 / result["rps"] if result["rps"] else float("nan")
            print(f"\n{name}: {result['rps']:,.0f} req/s on one worker = {wall_ms:.2f} ms of the worker per request "
                  f"({cpu_ms:.2f} ms of it CPU); p50 {result['p50']:.1f} ms, p99 {result['p99']:.1f} ms at "
                  f"{CONNECTIONS} connections", flush=True)
            print("  the worker's time (py-spy samples, waiting on PostgreSQL and Redis included):")
            for part, count in parts.most_common():
                print(f"    {part:<{WIDTH - 4}} {count / total:6.1%}  ~{wall_ms * count / total:6.3f} ms")
            print("  PostgreSQL (pg_stat_statements, during the sampled run):")
            print("\n".join(sql_lines) or "    none")
            print("  Redis (INFO commandstats, during the sampled run):")
            print("\n".join(redis_lines) or "    none")
            print("  cProfile, the same request sent straight to the WSGI application in this process, "
                  "ms per request:")
            print(f"    {'':<{WIDTH - 4}}    wall      CPU")
            print("\n".join(call_lines))
        explain(connection, tenant.schema_name)
    finally:
        if server is not None:
            servers.stop(server)
        redis_server.stop()
        pg.cleanup()


def explain(connection, schema: str) -> None:
    """EXPLAIN (ANALYZE, BUFFERS) of the list's and the searches' statements as the app sends them:
    prepared, on the generic plan, with the total counted in the same statement."""
    from apps.core.pagination import page_params
    from apps.public_api import selectors

    page = page_params(1, 10, default_limit=10, max_limit=100)
    for label, search in (("posts list, page 1 of 10", None), ("search 'zephyr'", "zephyr"),
                          ("search 'topic42'", "topic42")):
        found = selectors.posts_filter(schema=schema, status="published", search=search)
        sql = selectors._page_sql(found.schema, found.source, found.where, found.count_sql, found.searched, True,
                                  page.limit)
        params = [*([] if found.searched else found.count_params), *found.params, page.offset]
        numbered, n = sql, 0
        while "%s" in numbered:
            n += 1
            numbered = numbered.replace("%s", f"${n}", 1)
        numbered = numbered.replace("%%", "%")
        with connection.cursor() as cursor:
            cursor.execute(f'SET search_path = "{schema}", public')
            cursor.execute("SET plan_cache_mode = force_generic_plan")
            cursor.execute("DEALLOCATE ALL")
            cursor.execute(f"PREPARE profiled AS {numbered}")
            values = ", ".join("%s" for _ in params)
            cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) EXECUTE profiled({values})", params)
            plan = [row[0] for row in cursor.fetchall()]
            cursor.execute("DEALLOCATE profiled")
            cursor.execute("RESET plan_cache_mode")
        print(f"\nEXPLAIN (ANALYZE, BUFFERS), {label} (prepared, generic plan):")
        print("\n".join(f"  {line}" for line in plan), flush=True)


if __name__ == "__main__":
    main()
