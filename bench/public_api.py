"""Public content API under load: requests/s and p50/p99 latency of the posts list (cached,
uncached, 304) and of search, with 10,000 published posts (~2 KB HTML each), granian (as in the
image) or gunicorn with 2 sync workers, on loopback and wrk (-t1 -c32, 15 s after a 5 s warm-up), as in the performance
note, on the content web pool (WEB_ROUTES=content, as the deployments serve the public API); the
dashboard's reference list, and the worker memory of a process with every route, on one with
WEB_ROUTES=all. Then the table grows to BENCH_SCALE_TO posts (default 100,000; 0 skips) and search
is measured again. Runs on its own database (cms_bench_public) and Redis key prefix.

Environment: BENCH_POSTS (10000), BENCH_SCALE_TO (100000), BENCH_SECONDS (15), BENCH_WARMUP (5),
BENCH_CONNECTIONS (32), BENCH_WORKERS (2), BENCH_REDIS_URL (redis://127.0.0.1:6379/13),
BENCH_SERVER (granian, the image's web server; or gunicorn), BENCH_OTHER (1: also measure cache hits
under the other server).
"""
from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
from bench import servers  # noqa: E402
from bench.servers import stop, worker_memory  # noqa: E402
from bench import public_api_measure  # noqa: E402
from bench.public_api_measure import header  # noqa: E402
base = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/cms").rsplit("/", 1)[0]
DB_URL = f"{base}/cms_bench_public"
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
PREFIX = "bench-papi"
POSTS = int(os.environ.get("BENCH_POSTS", "10000"))
SCALE_TO = int(os.environ.get("BENCH_SCALE_TO", "100000"))
SECONDS = int(os.environ.get("BENCH_SECONDS", "15"))
WARMUP = int(os.environ.get("BENCH_WARMUP", "5"))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "32"))
WORKERS = int(os.environ.get("BENCH_WORKERS", "2"))
HOST = "bench.localhost"
SERVER = os.environ.get("BENCH_SERVER", "granian")
OTHER = "gunicorn" if SERVER == "granian" else "granian"
TITLE = {"granian": f"granian, {WORKERS} workers (WSGI, 1 blocking thread each, preloaded: python -m config.serve)",
         "gunicorn": f"gunicorn, {WORKERS} sync workers (--preload)"}
# The public API is measured on the content web pool (WEB_ROUTES=content), as the image's
# deployments serve it; the dashboard's reference on a process with every route.
ZEPHYR = {i * max(1, POSTS // 15) for i in range(15)}  # the posts that mention "zephyr"
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

subprocess.run(["psql", f"{base}/postgres", "-qc", "DROP DATABASE IF EXISTS cms_bench_public"], check=True)
subprocess.run(["psql", f"{base}/postgres", "-qc", "CREATE DATABASE cms_bench_public"], check=True)

import django  # noqa: E402

django.setup()
import redis  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django_tenants.utils import schema_context  # noqa: E402

from apps.content.models import Category, Post, Tag  # noqa: E402
from apps.media.models import Media  # noqa: E402
from tenants.services import client_register  # noqa: E402

WORDS = ("content platform editor publish article reader garden kitchen travel market design review "
         "library season harbor summit meadow lantern orbit canvas signal thread pattern velvet copper "
         "maple river stone cloud ember quartz willow falcon").split()


def html_body(rng: random.Random, n: int) -> str:
    paragraphs = []
    while sum(len(p) for p in paragraphs) < 2000:
        words = " ".join(rng.choice(WORDS) for _ in range(40))
        paragraphs.append(f"<p>{words} <strong>topic{n % 500}</strong>.</p>")
    return "".join(paragraphs)


def seed(first: int, last: int) -> None:
    """Published posts numbered first..last-1; 15 posts in all mention 'zephyr' (whatever the
    total), each post has 2 categories, 3 tags and a featured image."""
    rng = random.Random(first)
    with schema_context(tenant.schema_name):
        categories = list(Category.objects.all()) or Category.objects.bulk_create(
            [Category(name=f"Category {i}", slug=f"category-{i}") for i in range(20)])
        tags = list(Tag.objects.all()) or Tag.objects.bulk_create(
            [Tag(name=f"Tag {i}", slug=f"tag-{i}") for i in range(50)])
        images = list(Media.objects.all()) or Media.objects.bulk_create(
            [Media(file_name=f"image-{i}.jpg", file_type="image/jpeg", file_size=1000, alt_text=f"Image {i}",
                   storage_key=f"{tenant.schema_name}/media/{i}/image.jpg") for i in range(50)])
        from django.utils import timezone

        now = timezone.now()
        for start in range(first, last, 1000):
            batch = []
            for n in range(start, min(start + 1000, last)):
                title = f"{rng.choice(WORDS).title()} {rng.choice(WORDS)} {n}"
                body = html_body(rng, n)
                if n in ZEPHYR:
                    body += "<p>zephyr</p>"
                batch.append(Post(title=title, slug=f"post-{n}", excerpt=body[3:160], content=body, status="published",
                                  published_at=now, author=None, featured_image=rng.choice(images)))
            created = Post.objects.bulk_create(batch)
            Post.categories.through.objects.bulk_create(
                [Post.categories.through(post_id=post.id, category_id=category.id)
                 for post in created for category in rng.sample(categories, 2)])
            Post.tags.through.objects.bulk_create(
                [Post.tags.through(post_id=post.id, tag_id=tag.id) for post in created for tag in rng.sample(tags, 3)])
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE content_post")
            cursor.execute("VACUUM ANALYZE content_post_categories")
            cursor.execute("VACUUM ANALYZE content_post_tags")
    connection.set_schema_to_public()


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
for key in redis.Redis.from_url(REDIS_URL).scan_iter(f"{PREFIX}:*"):
    redis.Redis.from_url(REDIS_URL).delete(key)
tenant = client_register(company_name="Bench", contact_name="Bench", contact_email="bench@example.com",
                         subdomain="bench", admin_username="bench", admin_email="bench@example.com",
                         admin_password="password123", plan="business", verified=True)
started = time.perf_counter()
seed(0, POSTS)
print(f"seeded {POSTS:,} published posts in {time.perf_counter() - started:.0f} s", flush=True)

key = {"Host": HOST, "x-api-key": tenant.api_key}
LIST = "/api/v1/posts?page=1&limit=10"
SEARCH_RARE = "/api/v1/posts?search=zephyr"
SEARCH_COMMON = "/api/v1/posts?search=topic42"
# Every request a new query string: the reply cache misses, the list's total is shared.
MISS_SCRIPT = ROOT / ".data" / "bench-public-api-miss.lua"
MISS_SCRIPT.parent.mkdir(exist_ok=True)
MISS_SCRIPT.write_text('counter = 0\nrequest = function()\n  counter = counter + 1\n'
                       '  return wrk.format(nil, "/api/v1/posts?page=1&limit=10&v=" .. counter)\nend\n')
with schema_context(tenant.schema_name):
    from apps.accounts.models import User
    from apps.accounts.tokens import token_issue

    token, _ = token_issue(user=User.objects.get(), schema_name=tenant.schema_name)
connection.set_schema_to_public()
dashboard = {"Host": HOST, "Authorization": f"Bearer {token}"}

import urllib.request  # noqa: E402

cached, cached_port = start_server(SERVER)
try:
    request = urllib.request.Request(f"http://127.0.0.1:{cached_port}{LIST}", headers=key)
    with urllib.request.urlopen(request) as response:
        etag = response.headers["ETag"]
        body = response.read()
    BODY_FILE = ROOT / ".data" / "bench-public-api-body.json"
    BODY_FILE.write_bytes(body)
    print(f"\n{TITLE[SERVER]}; wrk -t1 -c{CONNECTIONS} {SECONDS}s after {WARMUP}s "
          f"warm-up; {POSTS:,} posts; load average before: {os.getloadavg()[0]:.1f}\n", flush=True)
    header()
    hit = measure("posts list, cached (fast path)", cached_port, LIST, key)
    measure("posts list, If-None-Match -> 304 (fast path)", cached_port, LIST, {**key, "If-None-Match": etag})
    measure("post by slug, cached (fast path)", cached_port, "/api/v1/posts/slug/post-42", key)
    measure("posts list, reply cache miss (fast path builds)", cached_port, LIST, key, str(MISS_SCRIPT))
    cached_memory = worker_memory(cached)
finally:
    stop(cached)

bare, bare_port = start_server(SERVER, {"BENCH_BARE_BODY": str(BODY_FILE)}, app="bare_wsgi:application")
try:
    ceiling = measure("reference: bare WSGI app, same bytes", bare_port, LIST, key)
finally:
    stop(bare)
print(f"  cached list = {hit['rps'] / ceiling['rps']:.0%} of the bare app under {SERVER}", flush=True)

# The dashboard's processes (every route): the reference list, and the same public reads, for
# their worker memory.
full, full_port = start_server(SERVER, {"PUBLIC_API_CACHE": "0"}, routes="all")
try:
    plain = measure("reference: dashboard GET /api/posts (ORM, ninja)", full_port, LIST.replace("/v1", ""),
                    dashboard)
    measure("posts list, uncached, every route (WEB_ROUTES=all)", full_port, LIST, key)
    measure("search 'zephyr', uncached, every route", full_port, SEARCH_RARE, key)
    full_memory = worker_memory(full)
finally:
    stop(full)

uncached, uncached_port = start_server(SERVER, {"PUBLIC_API_CACHE": "0"})
try:
    uncached_list = measure("posts list, uncached (cache off, fast path builds)", uncached_port, LIST, key)
    measure("posts list page 500, uncached", uncached_port, "/api/v1/posts?page=500&limit=10", key)
    measure("post by slug, uncached (Django)", uncached_port, "/api/v1/posts/slug/post-42", key)
    measure("posts of a category (~1/10 of posts), uncached (fast path)", uncached_port,
            "/api/v1/posts/category/category-3", key)
    measure("search 'zephyr' (15 matches), uncached (fast path builds)", uncached_port, SEARCH_RARE, key)
    measure("search 'topic42' (prefix, ~2% of posts), uncached (fast path)", uncached_port, SEARCH_COMMON, key)
    print(f"  uncached list = {uncached_list['rps'] / plain['rps']:.1f}x the dashboard's ORM list", flush=True)
    print(f"\nworker memory, content pool (WEB_ROUTES=content): cached server {cached_memory}; uncached server "
          f"{worker_memory(uncached)}", flush=True)
    print(f"worker memory, every route (WEB_ROUTES=all), after the dashboard list and the uncached reads: "
          f"{full_memory}", flush=True)
finally:
    stop(uncached)

# What the fast path's list building saves: the same request through Django alone.
django_only, django_port = start_server(SERVER, {"PUBLIC_API_CACHE": "0"}, app="config.wsgi:application",
                                        routes="all")
try:
    measure("reference: posts list, uncached, Django alone", django_port, LIST, key)
finally:
    stop(django_only)

if os.environ.get("BENCH_OTHER", "1") == "1":
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
        ceiling = measure("reference: bare WSGI app, same bytes", port, LIST, key)
    finally:
        stop(server)
    print(f"  cached list = {hit['rps'] / ceiling['rps']:.0%} of the bare app under {OTHER}", flush=True)
    print(f"\nworker memory: {memory}", flush=True)

if SCALE_TO > POSTS:
    started = time.perf_counter()
    seed(POSTS, SCALE_TO)
    print(f"\ngrew to {SCALE_TO:,} posts in {time.perf_counter() - started:.0f} s (still 15 posts mention 'zephyr')\n",
          flush=True)
    header()
    uncached, uncached_port = start_server(SERVER, {"PUBLIC_API_CACHE": "0"})
    try:
        measure(f"posts list, uncached ({SCALE_TO:,} posts)", uncached_port, LIST, key)
        measure(f"search 'zephyr', uncached ({SCALE_TO:,} posts)", uncached_port, SEARCH_RARE, key)
        measure(f"search 'topic42', uncached ({SCALE_TO:,} posts)", uncached_port, SEARCH_COMMON, key)
        measure(f"posts of a category, uncached ({SCALE_TO:,} posts)", uncached_port,
                "/api/v1/posts/category/category-3", key)
    finally:
        stop(uncached)
    cached, cached_port = start_server(SERVER)
    try:
        measure(f"posts list, reply cache miss ({SCALE_TO:,} posts)", cached_port, LIST, key, str(MISS_SCRIPT))
    finally:
        stop(cached)
