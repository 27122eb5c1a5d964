"""Content API figures on this machine: seeds BENCH_POSTS (10,000) posts with categories, tags
and featured images in one company, then prints the median and p90 latency of the dashboard's
list, search and get-by-slug endpoints (full request through Django: host -> tenant, JWT,
queries, JSON). Runs on its own database (cms_bench_content). BENCH_SMOKE=1: 300 posts, 5 samples."""
import os
import random
import statistics
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
from bench.common import announce, fresh_database, knob, use_own_redis  # noqa: E402

os.environ["DATABASE_URL"] = fresh_database("cms_bench_content")
use_own_redis("content")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
POSTS = knob("BENCH_POSTS", 10000, 300)
SAMPLES = knob("BENCH_SAMPLES", 50, 5)

import django  # noqa: E402

django.setup()
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402
from django_tenants.utils import schema_context  # noqa: E402

from apps.content.models import Category, Post, Tag  # noqa: E402
from apps.core.testing import Api, create_tenant, tenant_admin  # noqa: E402
from apps.media.models import Media  # noqa: E402

call_command("migrate_schemas", interactive=False, verbosity=0)

rng = random.Random(42)
COMMON = ("the and for with from that this into over under about after before while where when which "
          "data cloud server python django postgres search index query cache redis worker queue deploy "
          "release product design customer growth market team engineering security privacy report "
          "analytics content editor image video travel garden kitchen recipe health running training "
          "finance budget invoice startup founder hiring remote office meeting planning roadmap").split()
SYLLABLES = ["ka", "lo", "mi", "ra", "ven", "tor", "sel", "dan", "qui", "bre", "mos", "pel", "tri", "zu", "fen"]
VOCABULARY = COMMON + ["".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))) for _ in range(3000)]


def words(count: int) -> str:
    return " ".join(rng.choice(VOCABULARY) for _ in range(count))


def html_body() -> str:
    paragraphs = [f"<p>{words(rng.randint(40, 80))}</p>" for _ in range(rng.randint(3, 6))]
    return f"<h2>{words(5)}</h2>" + "".join(paragraphs)


def seed(tenant) -> list[str]:
    admin = tenant_admin(tenant)
    with schema_context(tenant.schema_name):
        categories = Category.objects.bulk_create(
            [Category(name=f"Category {n}", slug=f"category-{n}") for n in range(20)])
        tags = Tag.objects.bulk_create([Tag(name=f"Tag {n}", slug=f"tag-{n}") for n in range(60)])
        images = Media.objects.bulk_create([
            Media(file_name=f"img-{n}.png", file_type="image/png", file_size=1000, width=800, height=600,
                  storage_key=f"{tenant.schema_name}/media/{uuid.uuid4()}/img-{n}.png") for n in range(50)])
        now = timezone.now()
        posts, slugs = [], []
        for n in range(POSTS):
            title = f"{words(rng.randint(3, 8)).capitalize()} {n}"
            slug = f"post-{n}"
            status = rng.choices(["published", "draft", "archived"], weights=[70, 25, 5])[0]
            created = now - timedelta(minutes=n * 7)
            posts.append(Post(
                title=title, slug=slug, excerpt=words(25), content=html_body(), status=status,
                published_at=created if status == "published" else None, author=admin,
                featured_image=rng.choice(images), meta_title=title, meta_description=words(20),
            ))
            slugs.append(slug)
        started = time.perf_counter()
        Post.objects.bulk_create(posts, batch_size=1000)
        # created_at is auto_now_add: spread it afterwards so ordering by date is realistic
        with connection.cursor() as cursor:
            cursor.execute("UPDATE content_post SET created_at = now() - (random() * interval '700 days')")
        PostCategory, PostTag = Post.categories.through, Post.tags.through
        PostCategory.objects.bulk_create([
            PostCategory(post_id=post.id, category_id=category.id)
            for post in posts for category in rng.sample(categories, rng.randint(1, 2))], batch_size=5000)
        PostTag.objects.bulk_create([
            PostTag(post_id=post.id, tag_id=tag.id)
            for post in posts for tag in rng.sample(tags, rng.randint(0, 4))], batch_size=5000)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        print(f"seeded {POSTS} posts, 20 categories, 60 tags in {time.perf_counter() - started:.1f} s")
    return slugs


class SqlTimer:
    """Time spent in SQL (and statements run) during one request, through Django's execute hook."""

    def __init__(self):
        self.seconds, self.statements = 0.0, 0

    def __call__(self, execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.seconds += time.perf_counter() - started
            self.statements += not sql.startswith("SET search_path")


def measure(api: Api, make_path) -> tuple[float, float, float, int]:
    for _ in range(3):  # warm-up
        response = api.get(make_path())
        assert response.status_code == 200, response.content[:300]
    timings, sql_timings, statements = [], [], 0
    for _ in range(SAMPLES):
        path = make_path()
        timer = SqlTimer()
        with connection.execute_wrapper(timer):
            started = time.perf_counter()
            response = api.get(path)
            timings.append(time.perf_counter() - started)
        assert response.status_code == 200, response.content[:300]
        sql_timings.append(timer.seconds)
        statements = max(statements, timer.statements)
    timings.sort()
    return (statistics.median(timings) * 1000, timings[max(0, int(len(timings) * 0.9) - 1)] * 1000,
            statistics.median(sql_timings) * 1000, statements)


def main() -> None:
    tenant = create_tenant("bench-content")
    slugs = seed(tenant)
    api = Api(tenant, user=tenant_admin(tenant))
    terms = ["python", "postgres", "deploy", "kitchen", "security"]
    cases = [
        ("GET /api/posts (page 1, limit 10)", lambda: "/api/posts?limit=10"),
        ("GET /api/posts?status=published&page=200", lambda: "/api/posts?status=published&page=200&limit=10"),
        ("GET /api/posts?category=<slug>&tag=<slug>",
         lambda: f"/api/posts?category=category-{rng.randrange(20)}&tag=tag-{rng.randrange(60)}"),
        ("GET /api/posts?search=<word>", lambda: f"/api/posts?search={rng.choice(terms)}"),
        ("GET /api/posts?search=<prefix>", lambda: f"/api/posts?search={rng.choice(terms)[:4]}"),
        ("GET /api/search?q=<word>", lambda: f"/api/search?q={rng.choice(terms)}"),
        ("GET /api/search?q=<2 words>&status=published",
         lambda: f"/api/search?q={rng.choice(terms)}+{rng.choice(terms)}&status=published"),
        ("GET /api/posts/slug/<slug>", lambda: f"/api/posts/slug/{rng.choice(slugs)}"),
    ]
    announce()
    print(f"{POSTS} posts, {SAMPLES} samples per endpoint (Django test client, one process); "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'endpoint':<48} | {'median':>9} | {'p90':>9} | {'SQL (median)':>12} | statements")
    for label, make_path in cases:
        median, p90, sql, statements = measure(api, make_path)
        print(f"{label:<48} | {median:>6.1f} ms | {p90:>6.1f} ms | {sql:>9.1f} ms | {statements}")
    connection.set_schema_to_public()
    if os.environ.get("BENCH_KEEP") != "1":  # BENCH_KEEP=1 keeps the data to look at query plans
        tenant.delete(force_drop=True)


if __name__ == "__main__":
    main()
