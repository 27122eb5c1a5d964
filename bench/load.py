"""Mixed load on loopback against the production server: gunicorn, 2 sync workers, serving
apps.public_api.wsgi:application (Django behind the public API's cache-hit fast path), on a
private PostgreSQL cluster (PostgreSQL's own durability settings) and a private redis-server, each
on a free port (the shared services are not loaded). One seeded company (BENCH_POSTS published
posts with ~2 KB bodies, categories, tags, images).

The mix (weights in MIX): public API reads (list, by slug, search, by category), dashboard reads
(posts list, a post, stats, categories) and writes (add a tag, edit a post, create a post) with an
admin token, and page-view tracking. Writes bump the company's content version, so the public
API's cache keeps being invalidated as on a live site.

A bounded generator: BENCH_CONNECTIONS client threads (one request at a time each, a new
connection per request as sync workers close them), for BENCH_SECONDS after a BENCH_WARMUP.
Prints throughput, p50/p99 (all and per kind), errors (any non-2xx or failed request) and the
server processes' RSS at start (after warm-up), every minute, and at the end.
The bar: zero errors and flat memory. Exit status 1 when either is missed.

Environment: BENCH_SECONDS (600), BENCH_WARMUP (10), BENCH_CONNECTIONS (32), BENCH_WORKERS (2),
BENCH_POSTS (2000), BENCH_MAX_REQUESTS (0: no cap), BENCH_RSS_GROWTH_MB (15: the flat-memory bar).
BENCH_SMOKE=1: 5 s after 2 s, 8 connections, 200 posts.
"""
from __future__ import annotations

import http.client
import json
import os
import random
import resource
import statistics
import sys
import threading
import time
import uuid
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
from bench.common import SMOKE, announce, knob  # noqa: E402
from bench.servers import answers  # noqa: E402

SECONDS = knob("BENCH_SECONDS", 600, 5)
WARMUP = knob("BENCH_WARMUP", 10, 2)
CONNECTIONS = knob("BENCH_CONNECTIONS", 32, 8)
WORKERS = knob("BENCH_WORKERS", 2)
POSTS = knob("BENCH_POSTS", 2000, 200)
MAX_REQUESTS = knob("BENCH_MAX_REQUESTS", 0)
RSS_GROWTH_MB = knob("BENCH_RSS_GROWTH_MB", 15.0)
ROOT_DOMAIN = "load.test"
SUBDOMAIN = "loadco"
HOST = f"{SUBDOMAIN}.{ROOT_DOMAIN}"
WORDS = ("tenant schema postgres redis cache search index query worker celery django ninja python "
         "content publish draft media image rendition storage bucket analytics tracking rollup "
         "editor author viewer admin token header policy latency memory").split()

MIX = {  # kind: weight (per 100 requests)
    "public list": 20, "public slug": 15, "public search": 10, "public category": 5,
    "dashboard list": 10, "dashboard post": 8, "dashboard stats": 4, "dashboard categories": 3,
    "write tag": 3, "write post edit": 4, "write post create": 3,
    "tracking": 15,
}

from apps.core.tests.hardening.services import (  # noqa: E402
    Gunicorn,
    PrivatePostgres,
    PrivateRedis,
    app_env,
    migrate,
    rss_mb,
)


def words(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def html_body(rng: random.Random) -> str:
    paragraphs = [f"<p>{words(rng, 50)}</p>" for _ in range(6)]  # ~2 KB
    return f"<h2>{words(rng, 4)}</h2>" + "".join(paragraphs)


def seed(env: dict) -> dict:
    """The company, its admin token and content, made in this process with the ORM."""
    os.environ.update({k: v for k, v in env.items() if k != "PYTHONPATH"})
    import django

    django.setup()
    from django.db import connection
    from django.utils import timezone
    from django_tenants.utils import schema_context

    from apps.accounts.tokens import token_issue
    from apps.content.models import Category, Post, Tag
    from apps.core.testing import create_tenant, tenant_admin
    from apps.media.models import Media

    rng = random.Random(7)
    started = time.perf_counter()
    tenant = create_tenant(SUBDOMAIN)
    admin = tenant_admin(tenant)
    with schema_context(tenant.schema_name):
        categories = Category.objects.bulk_create(
            [Category(name=f"Category {n}", slug=f"category-{n}") for n in range(20)])
        tags = Tag.objects.bulk_create([Tag(name=f"Tag {n}", slug=f"tag-{n}") for n in range(60)])
        images = Media.objects.bulk_create([
            Media(file_name=f"img-{n}.png", file_type="image/png", file_size=1000, width=800, height=600,
                  alt_text=f"Image {n}", storage_key=f"{tenant.schema_name}/media/{uuid.uuid4()}/img-{n}.png",
                  uploaded_by=admin) for n in range(20)])
        now = timezone.now()
        posts = Post.objects.bulk_create([
            Post(title=f"{words(rng, 5).capitalize()} {n}", slug=f"post-{n}", excerpt=words(rng, 25),
                 content=html_body(rng), status="published", published_at=now, author=admin,
                 featured_image=rng.choice(images)) for n in range(POSTS)], batch_size=1000)
        through_c, through_t = Post.categories.through, Post.tags.through
        through_c.objects.bulk_create([through_c(post_id=p.id, category_id=rng.choice(categories).id) for p in posts],
                                      batch_size=5000)
        through_t.objects.bulk_create([through_t(post_id=p.id, tag_id=t.id) for p in posts
                                       for t in rng.sample(tags, 3)], batch_size=5000)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    token, _ = token_issue(user=admin, schema_name=tenant.schema_name)
    connection.set_schema_to_public()
    print(f"seeded {POSTS} published posts, 20 categories, 60 tags, 20 images in "
          f"{time.perf_counter() - started:.1f} s", flush=True)
    return {
        "token": token, "key": tenant.api_key, "category_ids": [str(c.id) for c in categories],
        "category_slugs": [c.slug for c in categories], "media_id": str(images[0].id),
        "post_ids": [str(p.id) for p in posts], "slugs": [p.slug for p in posts],
        "edit_ids": [str(p.id) for p in posts[:50]],
    }


class Load:
    def __init__(self, port: int, data: dict):
        self.port, self.data = port, data
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.statuses: dict[str, Counter] = defaultdict(Counter)
        self.errors: list[str] = []
        self.cache = Counter()
        self.sent = 0
        self.lock = threading.Lock()
        self.stop_at = 0.0
        self.recording = False
        kinds, weights = zip(*MIX.items())
        self.kinds, self.weights = kinds, weights

    def build(self, kind: str, rng: random.Random, n: str):
        d = self.data
        key = {"x-api-key": d["key"]}
        token = {"Authorization": f"Bearer {d['token']}"}
        if kind == "public list":
            return "GET", f"/api/v1/posts?page={rng.randint(1, 20)}&limit=10", key, None
        if kind == "public slug":
            return "GET", f"/api/v1/posts/slug/{rng.choice(d['slugs'])}", key, None
        if kind == "public search":
            return "GET", f"/api/v1/posts?search={rng.choice(WORDS)}&limit=10", key, None
        if kind == "public category":
            return "GET", f"/api/v1/posts/category/{rng.choice(d['category_slugs'])}?limit=10", key, None
        if kind == "dashboard list":
            return "GET", f"/api/posts?page={rng.randint(1, 20)}&limit=10&status=all", token, None
        if kind == "dashboard post":
            return "GET", f"/api/posts/{rng.choice(d['post_ids'])}", token, None
        if kind == "dashboard stats":
            return "GET", "/api/dashboard/stats", token, None
        if kind == "dashboard categories":
            return "GET", "/api/categories", token, None
        if kind == "write tag":
            return "POST", "/api/tags/add", token, {"name": f"Load tag {n}", "slug": f"load-tag-{n}"}
        if kind == "write post edit":
            return "PUT", f"/api/posts/{rng.choice(d['edit_ids'])}", token, {"excerpt": f"Edited {n}"}
        if kind == "write post create":
            return "POST", "/api/posts", token, {
                "postTitle": f"Load post {n}", "postContent": f"<p>{words(rng, 40)}</p>", "postExcerpt": "Load",
                "postStatus": "draft", "categories": [rng.choice(d["category_ids"])],
                "featuredMediaId": d["media_id"]}
        if kind == "tracking":
            slug = rng.choice(d["slugs"])
            return "POST", "/api/v1/analytics/track", key, {
                "pageUrl": f"https://www.example.com/blog/{slug}", "postSlug": slug,
                "referrer": rng.choice(["", "https://news.example.org/", "https://search.example.com/?q=x"]),
                "ipAddress": f"203.0.113.{rng.randint(1, 254)}", "userAgent": "load/1.0"}
        raise ValueError(kind)

    def worker(self, index: int) -> None:
        rng = random.Random(index)
        count = 0
        while time.monotonic() < self.stop_at:
            with self.lock:
                if MAX_REQUESTS and self.sent >= MAX_REQUESTS:
                    return
                self.sent += 1
            count += 1
            kind = rng.choices(self.kinds, self.weights)[0]
            method, path, headers, body = self.build(kind, rng, f"{index}-{count}-{uuid.uuid4().hex[:6]}")
            payload = json.dumps(body).encode() if body is not None else None
            all_headers = {"Host": HOST, **headers}
            if payload is not None:
                all_headers["Content-Type"] = "application/json"
            started = time.perf_counter()
            status, cache, detail = 0, "", ""
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                conn.request(method, path, body=payload, headers=all_headers)
                response = conn.getresponse()
                content = response.read()
                status, cache = response.status, response.getheader("X-Cache") or ""
                if status >= 300:
                    detail = content[:200].decode(errors="replace")
                conn.close()
            except Exception as exc:  # noqa: BLE001 - counted as an error
                detail = f"{exc.__class__.__name__}: {exc}"
            elapsed = (time.perf_counter() - started) * 1000
            if not self.recording:
                continue
            with self.lock:
                self.latencies[kind].append(elapsed)
                self.statuses[kind][status] += 1
                if cache:
                    self.cache[cache] += 1
                if not 200 <= status < 300:
                    self.errors.append(f"{kind} {method} {path} -> {status} {detail}")


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def main() -> int:
    announce()
    print(f"bench-load: {SECONDS} s of mixed load (+{WARMUP} s warm-up), {CONNECTIONS} connections, gunicorn "
          f"{WORKERS} sync workers, {POSTS} posts; private PostgreSQL and Redis", flush=True)
    pg = PrivatePostgres().init().start(durable=True)
    redis_server = PrivateRedis().start()
    web = None
    try:
        env = app_env(database_url=pg.createdb("cms"), redis_url=redis_server.url, root_domain=ROOT_DOMAIN,
                      queue="bench-load", extra={
                          "LOG_LEVEL": "ERROR",
                          # one API key stands for every website here: lift its per-key rate limit
                          "PUBLIC_API_RATE_LIMIT": "100000000",
                          "MEDIA_ROOT": str(pg.dir / "media"),
                      })
        migrate(env)
        data = seed(env)
        web = Gunicorn(env, workers=WORKERS, log=pg.dir / "gunicorn.log", timeout=60).start()
        deadline = time.monotonic() + 120
        while not answers(web.port):  # the workers have loaded the application (the port opens first)
            if time.monotonic() > deadline:
                sys.exit("gunicorn did not answer")
            time.sleep(0.2)
        load = Load(web.port, data)
        threads = [threading.Thread(target=load.worker, args=(i,), daemon=True) for i in range(CONNECTIONS)]
        load.stop_at = time.monotonic() + WARMUP + SECONDS
        for thread in threads:
            thread.start()
        time.sleep(WARMUP)
        pids = web.pids()
        rss_start = {pid: rss_mb(pid) for pid in pids}
        cpu_start = resource.getrusage(resource.RUSAGE_SELF)
        load.recording = True
        started = time.monotonic()
        samples = []
        next_sample = started + 60
        while any(t.is_alive() for t in threads):
            time.sleep(0.5)
            if time.monotonic() >= next_sample and time.monotonic() < load.stop_at:
                current = sum(rss_mb(pid) for pid in pids)
                samples.append(current)
                print(f"  {int(time.monotonic() - started):>4} s: {sum(len(v) for v in load.latencies.values()):>8,} "
                      f"requests, {len(load.errors)} errors, server RSS {current:.1f} MB", flush=True)
                next_sample += 60
        elapsed = time.monotonic() - started
        cpu_end = resource.getrusage(resource.RUSAGE_SELF)
        rss_end = {pid: rss_mb(pid) for pid in pids}
        alive = [pid for pid in pids if rss_end[pid] > 0]
    finally:
        if web is not None:
            web.stop()
        redis_server.stop()
        pg.cleanup()

    everything = [ms for values in load.latencies.values() for ms in values]
    total = len(everything)
    print()
    print(f"{'kind':<22} | {'requests':>9} | {'p50 ms':>8} | {'p99 ms':>8} | errors")
    print("-" * 62)
    for kind in MIX:
        values = load.latencies.get(kind, [])
        errors = sum(n for status, n in load.statuses[kind].items() if not 200 <= status < 300)
        print(f"{kind:<22} | {len(values):>9,} | {pct(values, 50):>8.1f} | {pct(values, 99):>8.1f} | {errors}")
    print("-" * 62)
    print(f"{'all':<22} | {total:>9,} | {pct(everything, 50):>8.1f} | {pct(everything, 99):>8.1f} | "
          f"{len(load.errors)}")
    print()
    print(f"throughput: {total / elapsed:,.1f} requests/s over {elapsed:.0f} s ({CONNECTIONS} connections); "
          f"mean {statistics.fmean(everything) if everything else 0:.1f} ms")
    hits = load.cache["HIT"]
    print(f"public API cache: {hits:,} hits, {load.cache['MISS']:,} misses "
          f"({100 * hits / max(1, hits + load.cache['MISS']):.0f} % hits)")
    client_cpu = (cpu_end.ru_utime + cpu_end.ru_stime) - (cpu_start.ru_utime + cpu_start.ru_stime)
    print(f"load generator CPU: {100 * client_cpu / elapsed:.0f} % of one core")
    print(f"errors: {len(load.errors)}")
    for line in load.errors[:10]:
        print(f"  {line}")
    start_total, end_total = sum(rss_start.values()), sum(rss_end[pid] for pid in alive)
    print("server RSS (MB), start -> end:")
    for n, pid in enumerate(pids):
        role = "arbiter" if n == 0 else f"worker {n}"
        print(f"  {role:<8} pid {pid:<7} {rss_start[pid]:>7.1f} -> {rss_end[pid]:>7.1f}")
    print(f"  total                {start_total:>7.1f} -> {end_total:>7.1f}  (per-minute samples: "
          f"{', '.join(f'{s:.1f}' for s in samples) or '-'})")
    growth = max(rss_end[pid] - rss_start[pid] for pid in alive) if alive else 0.0
    flat = len(alive) == len(pids) and growth <= RSS_GROWTH_MB
    # A smoke run (seconds of load) proves the mix is answered; memory is judged over minutes.
    verdict = "PASS" if not load.errors and (flat or SMOKE) else "FAIL"
    print(f"{verdict}: {len(load.errors)} errors; largest per-process RSS growth {growth:+.1f} MB "
          f"(bar: {RSS_GROWTH_MB:.0f} MB, every process alive: {len(alive) == len(pids)})")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
