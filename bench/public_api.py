"""Public content API under load: requests/s and p50/p99 latency of the posts list (cached,
uncached, 304), of search and of the same page through the Ghost-compatible routes (cached and
uncached; and both as Ghost's client asks, gzip, each pair alternated), with 10,000 published
posts (~2 KB HTML each), granian (as in the image) or gunicorn with 2 sync workers, on loopback
and wrk (-t1 -c32, 15 s after a 5 s warm-up), as in the performance note, on the content web pool (WEB_ROUTES=content, as the deployments serve the public API); the
dashboard's reference list, and the worker memory of a process with every route, on one with
WEB_ROUTES=all. Anchors measured in the same run: a bare WSGI app returning the same bytes
(bench/bare_wsgi.py) and a plain django-ninja list (bench/plain_ninja.py: ModelSchema, ORM,
ninja's pagination, no cache); the run ends with the issue's ratios against them (docs/performance.md),
and with each pool's memory per worker (RSS and PSS) against its goal: 80 MB for the content pool, 100 MB
for the processes with every route.
With BENCH_SCALE_TO (e.g. 100000; 0, the default, skips it: seeding 90,000 more posts takes
minutes) the table then grows to that many posts and the list and search are measured again.
Runs on its own database (cms_bench_public) and Redis key prefix.

Environment: BENCH_DATABASE (cms_bench_public), BENCH_POSTS (10000), BENCH_SCALE_TO (0), BENCH_SECONDS (15), BENCH_WARMUP (5),
BENCH_CONNECTIONS (32), BENCH_WORKERS (2), BENCH_REDIS_URL (redis://127.0.0.1:6379/13),
BENCH_SERVER (granian, the image's web server; or gunicorn), BENCH_OTHER (1: also measure cache hits
under the other server), BENCH_ROUNDS (3: alternated runs of each pair the Ghost goal compares), BENCH_WAGTAIL
(1: Wagtail's API list and searches on the same posts, bench/wagtail_anchor.py; 0 skips them; smoke
mode skips them unless 1).
BENCH_SMOKE=1: 300 posts grown to 1,000, 8 connections, 1 s runs without warm-up, no other server.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
from bench import servers  # noqa: E402
from bench.servers import memory_text, stop, worker_figures, worker_memory  # noqa: E402
from bench import public_api_measure  # noqa: E402
from bench.common import REDIS_URL, announce, fresh_database, fresh_redis, knob  # noqa: E402
from bench.public_api_measure import header, wrk  # noqa: E402

DB_URL = fresh_database(os.environ.get("BENCH_DATABASE", "cms_bench_public"))
PREFIX = "bench-papi"
POSTS = knob("BENCH_POSTS", 10000, 300)
SCALE_TO = knob("BENCH_SCALE_TO", 0, 1000)
SECONDS = knob("BENCH_SECONDS", 15, 1)
WARMUP = knob("BENCH_WARMUP", 5, 0)
CONNECTIONS = knob("BENCH_CONNECTIONS", 32, 8)
ROUNDS = knob("BENCH_ROUNDS", 3, 1)
WORKERS = knob("BENCH_WORKERS", 2)
WAGTAIL = knob("BENCH_WAGTAIL", True, False)  # smoke mode: only with BENCH_WAGTAIL=1 (Makefile)
HOST = "bench.localhost"
SERVER = os.environ.get("BENCH_SERVER", "granian")
OTHER = "gunicorn" if SERVER == "granian" else "granian"
TITLE = {"granian": f"granian, {WORKERS} workers (WSGI, 1 blocking thread each, preloaded: python -m config.serve)",
         "gunicorn": f"gunicorn, {WORKERS} sync workers (--preload)"}
# The public API is measured on the content web pool (WEB_ROUTES=content), as the image's
# deployments serve it; the dashboard's reference on a process with every route.
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
    "LOG_LEVEL": "WARNING",
    # One key takes the whole load here; the limit itself is still checked on every request.
    "PUBLIC_API_RATE_LIMIT": "1000000000",
}
os.environ.update({k: v for k, v in SERVER_ENV.items() if k != "PYTHONPATH"})

if not shutil.which("wrk"):
    sys.exit("wrk is not installed (make bench-public-api installs it)")
if WAGTAIL:
    from bench import wagtail_anchor  # noqa: E402

    if reason := wagtail_anchor.missing():
        sys.exit(f"{reason}; or BENCH_WAGTAIL=0")

import django  # noqa: E402

django.setup()
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django_tenants.utils import schema_context  # noqa: E402

from bench import post_text, public_api_data  # noqa: E402
from lifecycle.services import client_register  # noqa: E402

ZEPHYR = post_text.zephyr_posts(POSTS)  # the posts that mention "zephyr"

def seed(first: int, last: int) -> None:
    public_api_data.seed(tenant.schema_name, first, last, zephyr=ZEPHYR)


def start_server(kind: str, extra_env: dict | None = None, app: str = servers.APP, *,
                 routes: str = "content") -> tuple[subprocess.Popen, int]:
    """`routes`: content (WEB_ROUTES=content, the pool that serves the public API in the image's
    deployments) or all (every route: the dashboard's processes)."""
    env = {**SERVER_ENV, "WEB_ROUTES": routes, **(extra_env or {})}
    return servers.start_server(kind, env, workers=WORKERS, app=app)


def measure(name: str, port: int, path: str, headers: dict[str, str], script: str | None = None) -> dict:
    return public_api_measure.measure(name, port, path, headers, seconds=SECONDS, warmup=WARMUP,
                                      connections=CONNECTIONS, script=script)


call_command("migrate_schemas", interactive=False, verbosity=0)
fresh_redis(REDIS_URL, PREFIX)
tenant = client_register(company_name="Bench", contact_name="Bench", contact_email="bench@example.com",
                         subdomain="bench", admin_username="bench", admin_email="bench@example.com",
                         admin_password="password123", plan="business", verified=True)
started = time.perf_counter()
seed(0, POSTS)
print(f"seeded {POSTS:,} published posts in {time.perf_counter() - started:.0f} s", flush=True)
if WAGTAIL:  # Wagtail's pages now, before any row: a failure here costs no measurement
    wagtail_anchor.prepare(POSTS)

key = {"Host": HOST, "x-api-key": tenant.api_key}
LIST = "/api/v1/posts?page=1&limit=10"
# The same page through the Ghost-compatible routes (apps.ghost_api): its posts with their tags
# and authors, as /api/v1's list carries its posts' categories, tags and author.
GHOST_LIST = f"/ghost/api/content/posts/?key={tenant.ghost_content_key}&include=tags,authors&page=1&limit=10"
# The same page with the fields /api/v1's list carries (its posts' summaries: no HTML), in Ghost's
# shape (Ghost's tags carry all their fields): what the compatibility layer costs beside the HTML
# that a Ghost browse sends by default.
GHOST_SAME = (GHOST_LIST + "&fields=id,title,slug,excerpt,custom_excerpt,feature_image,feature_image_alt,created_at,"
              "published_at,url,tags,primary_tag,authors,primary_author")
host_only = {"Host": HOST}
# What Ghost's client sends from Node (axios), as a browser or Node's fetch asks for gzip too; Ghost's
# own server compresses its replies, and so do both entry points here (apps.public_api.core.encoded).
GZIP = {"Accept-Encoding": "gzip, compress, deflate, br"}
SEARCH_RARE = "/api/v1/posts?search=zephyr"
SEARCH_COMMON = "/api/v1/posts?search=topic42"
# Every request a new query string: the reply cache misses, the list's total is shared. Each run
# of wrk names its query strings after the second it started, so the measured run does not send
# its warm-up's again (they would be cache hits, more of them for a faster row).
MISS_START = "start = os.time()\ncounter = 0\n"
MISS_SCRIPT = ROOT / ".data" / "bench-public-api-miss.lua"
MISS_SCRIPT.parent.mkdir(exist_ok=True)
MISS_SCRIPT.write_text(MISS_START + 'request = function()\n  counter = counter + 1\n'
                       '  return wrk.format(nil, "/api/v1/posts?page=1&limit=10&v=" .. start .. "-" .. counter)'
                       '\nend\n')
GHOST_MISS_SCRIPT = ROOT / ".data" / "bench-public-api-ghost-miss.lua"
GHOST_MISS_SCRIPT.write_text(MISS_START + 'request = function()\n  counter = counter + 1\n'
                             f'  return wrk.format(nil, "{GHOST_LIST}&v=" .. start .. "-" .. counter)\nend\n')
GHOST_SAME_MISS_SCRIPT = ROOT / ".data" / "bench-public-api-ghost-same-miss.lua"
GHOST_SAME_MISS_SCRIPT.write_text(MISS_START + 'request = function()\n  counter = counter + 1\n'
                                  f'  return wrk.format(nil, "{GHOST_SAME}&v=" .. start .. "-" .. counter)\nend\n')
with schema_context(tenant.schema_name):
    from apps.accounts.models import User
    from apps.accounts.tokens import token_issue

    token, _ = token_issue(user=User.objects.get(), schema_name=tenant.schema_name)
connection.set_schema_to_public()
dashboard = {"Host": HOST, "Authorization": f"Bearer {token}"}

import urllib.request  # noqa: E402

PLAIN = "/plain/posts?page=1&page_size=10"
results: dict[str, dict] = {}


def row(label: str, name: str, port: int, path: str, headers: dict[str, str], script: str | None = None) -> dict:
    """A measured row, kept under `label` for the ratios at the end."""
    results[label] = measure(name, port, path, headers, script)
    return results[label]


def drop_replies() -> None:
    """Before a miss row: the replies the rows before it stored (a miss row stores one per request,
    a Ghost page 61 KB), so that each miss row starts on the same Redis."""
    fresh_redis(REDIS_URL, f"{PREFIX}:papi:gz")


def ratio(a: dict, b: dict) -> float:
    return a["rps"] / b["rps"] if b["rps"] else float("nan")


def alternated(port: int, rows: list[tuple[str, str, str, dict, str | None]], *, before=None) -> None:
    """Two rows compared by a goal, measured one after the other ROUNDS times (each after its own
    warm-up once; `before` runs before every run): each row is the median run by rate. One run of
    each moved the ratio by up to 20 points on a shared machine, whose speed drifts from minute to
    minute; alternating puts both rows in the same minutes. `rows`: (label, name, path, headers, script)."""
    runs: dict[str, list[dict]] = {label: [] for label, *_ in rows}
    for number in range(ROUNDS):
        for label, _, path, headers, script in rows:
            if before is not None:
                before()
            if number == 0 and WARMUP > 0:
                wrk(port, path, headers, WARMUP, CONNECTIONS, script)
            runs[label].append(wrk(port, path, headers, SECONDS, CONNECTIONS, script))
    for label, name, *_ in rows:
        ranked = sorted(runs[label], key=lambda run: run["rps"])
        results[label] = median = ranked[len(ranked) // 2]
        spread = f"  ({ROUNDS} runs: {ranked[0]['rps']:,.0f}-{ranked[-1]['rps']:,.0f})" if ROUNDS > 1 else ""
        print(f"{name:<{public_api_measure.WIDTH}} | {median['rps']:>9,.0f} | {median['p50']:>8.2f} ms | "
              f"{median['p99']:>8.2f} ms{spread}", flush=True)


cached, cached_port = start_server(SERVER)
try:
    request = urllib.request.Request(f"http://127.0.0.1:{cached_port}{LIST}", headers=key)
    with urllib.request.urlopen(request) as response:
        etag = response.headers["ETag"]
        body = response.read()
    BODY_FILE = ROOT / ".data" / "bench-public-api-body.json"
    BODY_FILE.write_bytes(body)
    # The Ghost browse's page (Ghost's default fields: its posts' HTML) for the second anchor.
    with urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{cached_port}{GHOST_LIST}",
                                                       headers=host_only)) as response:
        GHOST_BODY_FILE = ROOT / ".data" / "bench-public-api-ghost-body.json"
        GHOST_BODY_FILE.write_bytes(response.read())
    announce()
    print(f"\n{TITLE[SERVER]}; wrk -t1 -c{CONNECTIONS} {SECONDS}s after {WARMUP}s "
          f"warm-up; {POSTS:,} posts; body {len(body):,} bytes; load average before: {os.getloadavg()[0]:.1f}\n",
          flush=True)
    header()
    row("hit", "posts list, cached (fast path)", cached_port, LIST, key)
    row("304", "posts list, If-None-Match -> 304 (fast path)", cached_port, LIST, {**key, "If-None-Match": etag})
    measure("post by slug, cached (fast path)", cached_port, "/api/v1/posts/slug/post-42", key)
    drop_replies()
    row("miss", "posts list, reply cache miss (fast path builds)", cached_port, LIST, key, str(MISS_SCRIPT))
    row("ghost-hit", "Ghost posts browse, same page, cached (fast path)", cached_port, GHOST_LIST, host_only)
    drop_replies()
    row("ghost-miss", "Ghost posts browse, same page, reply cache miss (fast path builds)", cached_port, GHOST_LIST,
        host_only, str(GHOST_MISS_SCRIPT))
    row("ghost-same-hit", "Ghost posts browse, /api/v1's fields, cached", cached_port, GHOST_SAME, host_only)
    drop_replies()
    row("ghost-same-miss", "Ghost posts browse, /api/v1's fields, reply cache miss", cached_port, GHOST_SAME,
        host_only, str(GHOST_SAME_MISS_SCRIPT))
    # As Ghost's client asks (gzip), each pair alternated.
    alternated(cached_port, [("gz-hit", "posts list, cached, gzip", LIST, {**key, **GZIP}, None),
                             ("gz-ghost-hit", "Ghost posts browse, cached, gzip", GHOST_LIST, {**host_only, **GZIP},
                              None)])
    alternated(cached_port, [("gz-miss", "posts list, reply cache miss, gzip", LIST, {**key, **GZIP}, str(MISS_SCRIPT)),
                             ("gz-ghost-miss", "Ghost posts browse, reply cache miss, gzip", GHOST_LIST,
                              {**host_only, **GZIP}, str(GHOST_MISS_SCRIPT))], before=drop_replies)
    cached_memory = worker_figures(cached)
finally:
    stop(cached)

bare, bare_port = start_server(SERVER, {"BENCH_BARE_BODY": str(BODY_FILE)}, app="bare_wsgi:application")
try:
    row("bare", "anchor: bare WSGI app, same bytes", bare_port, LIST, key)
finally:
    stop(bare)
print(f"  cached list = {ratio(results['hit'], results['bare']):.0%} of the bare app under {SERVER}", flush=True)
# The same anchor with the Ghost browse's bytes (its default fields: 5-6 times /api/v1's): how much
# of the Ghost hit's rate the larger body itself takes, on a server that does nothing else.
bare, bare_port = start_server(SERVER, {"BENCH_BARE_BODY": str(GHOST_BODY_FILE)}, app="bare_wsgi:application")
try:
    row("ghost-bare", f"anchor: bare WSGI app, the Ghost browse's bytes ({GHOST_BODY_FILE.stat().st_size:,})",
        bare_port, LIST, key)
finally:
    stop(bare)
print(f"  Ghost browse, cached = {ratio(results['ghost-hit'], results['ghost-bare']):.0%} of its bare app",
      flush=True)

# The anchor of the uncached list: a plain django-ninja list (bench/plain_ninja.py), Django alone.
plain_server, plain_port = start_server(SERVER, {"DJANGO_SETTINGS_MODULE": "bench.settings_plain_ninja",
                                                 "PUBLIC_API_CACHE": "0"},
                                        app="config.wsgi:application", routes="all")
try:
    row("plain", "anchor: plain ninja list (ORM, ninja paginate)", plain_port, PLAIN, key)
finally:
    stop(plain_server)

# The dashboard's processes (every route): the reference list, and the same public reads, for
# their worker memory.
full, full_port = start_server(SERVER, {"PUBLIC_API_CACHE": "0"}, routes="all")
try:
    plain = measure("reference: dashboard GET /api/posts (ORM, ninja)", full_port, LIST.replace("/v1", ""),
                    dashboard)
    measure("posts list, uncached, every route (WEB_ROUTES=all)", full_port, LIST, key)
    measure("search 'zephyr', uncached, every route", full_port, SEARCH_RARE, key)
    full_memory = worker_figures(full)
finally:
    stop(full)

uncached, uncached_port = start_server(SERVER, {"PUBLIC_API_CACHE": "0"})
try:
    uncached_list = row("list", "posts list, uncached (cache off, fast path builds)", uncached_port, LIST, key)
    row("ghost-list", "Ghost posts browse, same page, uncached (fast path builds)", uncached_port, GHOST_LIST, host_only)
    row("ghost-same-list", "Ghost posts browse, /api/v1's fields, uncached", uncached_port, GHOST_SAME, host_only)
    alternated(uncached_port, [("gz-list", "posts list, uncached, gzip", LIST, {**key, **GZIP}, None),
                               ("gz-ghost-list", "Ghost posts browse, uncached, gzip", GHOST_LIST,
                                {**host_only, **GZIP}, None)])
    deep = max(1, POSTS // 20)  # page 500 at 10,000 posts
    measure(f"posts list page {deep}, uncached", uncached_port, f"/api/v1/posts?page={deep}&limit=10", key)
    measure("post by slug, uncached (Django)", uncached_port, "/api/v1/posts/slug/post-42", key)
    measure("posts of a category (~1/10 of posts), uncached (fast path)", uncached_port,
            "/api/v1/posts/category/category-3", key)
    row("rare", "search 'zephyr' (15 matches), uncached (fast path builds)", uncached_port, SEARCH_RARE, key)
    row("common", "search 'topic42' (prefix, ~2% of posts), uncached (fast path)", uncached_port, SEARCH_COMMON, key)
    print(f"  uncached list = {ratio(uncached_list, plain):.1f}x the dashboard's ORM list", flush=True)
    uncached_memory = worker_figures(uncached)
    print(f"\nworker memory, content pool (WEB_ROUTES=content): cached server {memory_text(cached_memory)}; "
          f"uncached server {memory_text(uncached_memory)}", flush=True)
    print(f"worker memory, every route (WEB_ROUTES=all), after the dashboard list and the uncached reads: "
          f"{memory_text(full_memory)}", flush=True)
finally:
    stop(uncached)

# What the fast path's list building saves: the same request through Django alone.
django_only, django_port = start_server(SERVER, {"PUBLIC_API_CACHE": "0"}, app="config.wsgi:application",
                                        routes="all")
try:
    measure("reference: posts list, uncached, Django alone", django_port, LIST, key)
finally:
    stop(django_only)

if knob("BENCH_OTHER", True, False):
    print(f"\n{TITLE[OTHER]}, cache hits\n", flush=True)
    header()
    server, port = start_server(OTHER)
    try:
        hit = measure("posts list, cached (fast path)", port, LIST, key)
        measure("posts list, If-None-Match -> 304 (fast path)", port, LIST, {**key, "If-None-Match": etag})
        memory = worker_memory(server)
    finally:
        stop(server)
    server, port = start_server(OTHER, {"BENCH_BARE_BODY": str(BODY_FILE)}, app="bare_wsgi:application")
    try:
        ceiling = measure("anchor: bare WSGI app, same bytes", port, LIST, key)
    finally:
        stop(server)
    print(f"  cached list = {ratio(hit, ceiling):.0%} of the bare app under {OTHER}", flush=True)
    print(f"\nworker memory: {memory}", flush=True)

# The anchor of the uncached rows: Wagtail's API serving the same list and searches (no cache).
if WAGTAIL:
    results.update(wagtail_anchor.run(pages=POSTS, seconds=SECONDS, warmup=WARMUP, connections=CONNECTIONS,
                                      workers=WORKERS))

if SCALE_TO > POSTS:
    started = time.perf_counter()
    seed(POSTS, SCALE_TO)
    print(f"\ngrew to {SCALE_TO:,} posts in {time.perf_counter() - started:.0f} s (still 15 posts mention 'zephyr')\n",
          flush=True)
    header()
    uncached, uncached_port = start_server(SERVER, {"PUBLIC_API_CACHE": "0"})
    try:
        row("list+", f"posts list, uncached ({SCALE_TO:,} posts)", uncached_port, LIST, key)
        row("rare+", f"search 'zephyr', uncached ({SCALE_TO:,} posts)", uncached_port, SEARCH_RARE, key)
        row("common+", f"search 'topic42', uncached ({SCALE_TO:,} posts)", uncached_port, SEARCH_COMMON, key)
        measure(f"posts of a category, uncached ({SCALE_TO:,} posts)", uncached_port,
                "/api/v1/posts/category/category-3", key)
    finally:
        stop(uncached)
    cached, cached_port = start_server(SERVER)
    try:
        measure(f"posts list, reply cache miss ({SCALE_TO:,} posts)", cached_port, LIST, key, str(MISS_SCRIPT))
    finally:
        stop(cached)


def goal(name: str, value: str, target: str, met: bool | None) -> None:
    verdict = "-" if met is None else "met" if met else "NOT met"
    print(f"  {name:<58} {value:>10}   {target:<16} {verdict}", flush=True)


r = results
print(f"\nThe issue's ratios, measured in this run ({SERVER}, {WORKERS} workers, {CONNECTIONS} connections, "
      f"{POSTS:,} posts; load average now {os.getloadavg()[0]:.1f}: other work on the machine moves absolute "
      "figures, ratios of one run less)", flush=True)
goal("uncached posts list vs plain ninja list", f"{ratio(r['list'], r['plain']):.1f}x", "goal >= 5x",
     ratio(r["list"], r["plain"]) >= 5)
goal("fast-path cache hit vs bare WSGI app, same bytes", f"{ratio(r['hit'], r['bare']):.0%}", "goal >= 25%",
     ratio(r["hit"], r["bare"]) >= 0.25)
goal("304 (fast path) vs bare WSGI app", f"{ratio(r['304'], r['bare']):.0%}", "goal >= 25%",
     ratio(r["304"], r["bare"]) >= 0.25)
for label, name in (("list", "p99, uncached posts list"), ("rare", "p99, search 'zephyr' (15 matches)"),
                    ("common", "p99, search 'topic42' (~2% of posts)")):
    goal(f"{name}, {CONNECTIONS} connections", f"{r[label]['p99']:.1f} ms", "goal < 50 ms", r[label]["p99"] < 50)
# The goal: the same page through the Ghost routes against /api/v1's list, each sent as Ghost's
# client asks (gzip: Ghost's server compresses its replies, as both entry points here do), each
# pair alternated. Beside it, for reference, the single runs of the plain bytes (no Accept-Encoding):
# Ghost's default fields (the posts' HTML) are 5-6 times /api/v1's bytes, and with /api/v1's fields 3 times.
for label, state in (("hit", "cached"), ("miss", "reply cache miss"), ("list", "cache off")):
    goal(f"Ghost browse vs /api/v1/posts, as Ghost's client asks (gzip), {state}",
         f"{ratio(r[f'gz-ghost-{label}'], r[f'gz-{label}']):.0%}", "goal >= 85%",
         ratio(r[f"gz-ghost-{label}"], r[f"gz-{label}"]) >= 0.85)
for suffix, fields in (("", "Ghost's default fields"), ("-same", "/api/v1's fields")):
    for label, state in (("hit", "cached"), ("miss", "reply cache miss"), ("list", "cache off")):
        ghost = r[f"ghost{suffix}-{label}"]
        goal(f"  for reference, plain bytes, {fields}, {state}", f"{ratio(ghost, r[label]):.0%}", "one run each", None)
# The Ghost hit's rate against its own bare app (the same bytes), beside /api/v1's against its own:
# what the compatibility layer costs on a hit, the bytes of Ghost's default fields set apart.
goal("Ghost browse, default fields, cached: share of its bare app vs /api/v1's",
     f"{ratio(r['ghost-hit'], r['ghost-bare']) / ratio(r['hit'], r['bare']):.0%}", "goal >= 85%",
     ratio(r["ghost-hit"], r["ghost-bare"]) / ratio(r["hit"], r["bare"]) >= 0.85)
if "rare+" in r:
    for label, name in (("rare", "search 'zephyr'"), ("common", "search 'topic42'"), ("list", "uncached list")):
        goal(f"{name}, req/s at {SCALE_TO:,} vs at {POSTS:,} posts",
             f"{ratio(r[label + '+'], r[label]):.0%}", "goal flat (>= 90%)", ratio(r[label + "+"], r[label]) >= 0.9)
else:
    goal("search at 100,000 vs 10,000 posts", "not run", "BENCH_SCALE_TO=100000", None)
if "wagtail-list" in r:
    goal("uncached posts list vs Wagtail's API list", f"{ratio(r['list'], r['wagtail-list']):.1f}x", "goal >= 15x",
         ratio(r["list"], r["wagtail-list"]) >= 15)
    # The issue says search is 300x Wagtail's: measured, not judged (Wagtail matches whole words, the
    # product "topic42" as a prefix: 10 times the matches; Wagtail's search sends titles, not summaries).
    for label, name in (("rare", "search 'zephyr'"), ("common", "search 'topic42'")):
        goal(f"{name} vs Wagtail's search", f"{ratio(r[label], r['wagtail-' + label]):.1f}x", "issue says 300x",
             None)
else:
    goal("uncached posts list vs Wagtail's API list", "not run", "BENCH_WAGTAIL=0", None)
# Memory per worker decides how many workers a node holds (docs/performance.md): each pool's
# workers after their rows, the largest of them against the pool's goal. The goal is on RSS; PSS (a
# worker's share of the pages the preloaded parent shares with it) is printed beside it, unjudged.
for pool, figures, limit in (("content pool, cached server", cached_memory, 80),
                             ("content pool, uncached server", uncached_memory, 80),
                             ("every route (WEB_ROUTES=all)", full_memory, 100)):
    rss = [figure["rss"] for figure in figures]
    pss = [figure["pss"] for figure in figures]
    goal(f"memory per worker, {pool}, RSS", " / ".join(f"{value:.0f}" for value in rss) + " MB",
         f"goal <= {limit} MB", bool(rss) and max(rss) <= limit)
    goal(f"memory per worker, {pool}, PSS", " / ".join(f"{value:.0f}" for value in pss) + " MB",
         "(no goal)", None)
