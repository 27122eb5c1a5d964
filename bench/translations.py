"""Translations on the public content API (docs/translations.md): what `?locale=` costs.

One company writing in en, fr and de (fallbacks: fr -> en, de -> en) with BENCH_POSTS (10,000)
published posts in BENCH_GROUPS (4,000) translation groups: every group in English, the first
3,000 also in French and the last 3,000 also in German. Through Django's full request path (the
test client: middleware, key check, the reply built by the same code as in production), every
request a cache miss (a query parameter of its own), p50 and p99 of BENCH_SAMPLES (200) requests
(searches: twice as many) of:

- the first page of 10 posts, without a locale (the English posts) and with locale=fr (one post
  per group, the best along fr -> en, with `locale` and `translations`), and page 20;
- a post by slug, without a locale and with locale=fr (the group's French translation);
- a search (each a new term: counted, not cached), without a locale (the three configurations
  OR'd) and with locale=fr (french and english).

A list's total is counted once per content version and kept in Redis (as after a site's first
page), so the figures are of misses whose total is known; the first (counting) request is shown
apart. Both requests of a pair are warmed up, then sampled in turn (the machine's load moves).
Prints p50 and p99 of each with and without a locale, then the goals with the load average:
list and by-slug with a locale at most BENCH_MAX_RATIO (1.10) times the p50 without, search p99
under BENCH_SEARCH_P99_MS (50 ms); fails (exit 1) when one is not met. Own database
(cms_bench_translations). BENCH_SMOKE=1: 1,000 posts, 15 samples, and the goals are only
reported (timings of a few milliseconds on a shared machine are noise).
"""
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
from bench.common import SMOKE, announce, drop_database, fresh_database, knob, use_own_redis  # noqa: E402

os.environ["DATABASE_URL"] = fresh_database("cms_bench_translations")
use_own_redis("translations")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
POSTS = knob("BENCH_POSTS", 10_000, 1_000)
# 200: a few seconds; with 60 the p50 ratio of one request moved by 0.1 between runs minutes apart.
SAMPLES = knob("BENCH_SAMPLES", 200, 15)
MAX_RATIO = float(os.environ.get("BENCH_MAX_RATIO", "1.10"))
SEARCH_P99_MS = float(os.environ.get("BENCH_SEARCH_P99_MS", "50"))

import django  # noqa: E402

django.setup()
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django_tenants.utils import schema_context  # noqa: E402

from apps.core.testing import Api, create_tenant  # noqa: E402
from tenants.models import Client  # noqa: E402

call_command("migrate_schemas", interactive=False, verbosity=0)
settings.PUBLIC_API_CACHE = True
settings.ALLOWED_HOSTS = ["*"]
settings.PUBLIC_API_RATE_LIMIT = 10**9  # a benchmark, not a website: no key limit
settings.PUBLIC_API_RATE_LIMITS = {}

tenant = create_tenant("bench-translations")
Client.objects.filter(pk=tenant.pk).update(languages=["en", "fr", "de"], email_verified_at=django.utils.timezone.now())
tenant.refresh_from_db()
groups = POSTS * 2 // 5  # 4,000 of 10,000: every group in en, 3/4 in fr, 3/4 in de
both = (POSTS - groups) // 2
started = time.perf_counter()
with schema_context(tenant.schema_name), connection.cursor() as cursor:
    cursor.execute("INSERT INTO content_category (id, name, slug, description, created_at, updated_at) "
                   "VALUES (gen_random_uuid(), 'News', 'news', '', now(), now())")
    columns = ("id, title, slug, language, translation_group, custom_slug, excerpt, content, status, published_at, "
               "publish_scheduled, allow_indexing, video_id, meta_title, meta_description, canonical_url, "
               "focus_keyword, og_title, og_description, twitter_title, twitter_description, review_note, "
               "created_at, updated_at")
    cursor.execute(
        "CREATE TEMP TABLE bench_groups AS SELECT n, gen_random_uuid() AS g, "
        "now() - make_interval(mins => n) AS at FROM generate_series(1, %s) n", [groups])
    for language, title, condition in (("en", "Post", "TRUE"), ("fr", "Article", "n <= %s" % both),
                                       ("de", "Beitrag", "n > %s" % (groups - both))):
        cursor.execute(
            f"INSERT INTO content_post ({columns}) SELECT gen_random_uuid(), '{title} ' || n, "
            f"'{language}-post-' || n, '{language}', g, '', 'An excerpt', '<p>Body of post ' || n || '</p>', "
            "'published', at, false, true, '', '', '', '', '', '', '', '', '', '', at, at "
            f"FROM bench_groups WHERE {condition}")
    cursor.execute("INSERT INTO content_post_categories (post_id, category_id) SELECT p.id, c.id "
                   "FROM content_post p CROSS JOIN content_category c")
    # As autovacuum leaves a table after a load (bench/public_api_data.py does the same): the
    # visibility map set, so index-only reads need no heap.
    cursor.execute("VACUUM ANALYZE content_post")
    cursor.execute("VACUUM ANALYZE content_post_categories")
    cursor.execute("VACUUM ANALYZE content_post_listing")  # kept by the posts table's triggers
    cursor.execute("SELECT language, count(*) FROM content_post GROUP BY language ORDER BY language")
    counts = dict(cursor.fetchall())
connection.set_schema_to_public()
announce()
print(f"translations: {sum(counts.values())} posts ({counts}) in {groups} groups, made in "
      f"{time.perf_counter() - started:.1f} s")

site = Api(tenant, headers={"x-api-key": tenant.api_key})
_n = iter(range(10**9))


def timed(path: str) -> float:
    separator = "&" if "?" in path else "?"
    start = time.perf_counter()
    reply = site.get(f"{path}{separator}bench={next(_n)}")  # a query of its own: a cache miss
    elapsed = (time.perf_counter() - start) * 1000
    assert reply.status_code == 200, (path, reply.status_code, reply.content[:300])
    return elapsed


def percentile(timings: list[float], share: float) -> float:
    timings = sorted(timings)
    return timings[max(0, int(len(timings) * share) - 1)]


def paired(plain, localized, *, samples: int, warm: int = 6) -> tuple[list[float], list[float]]:
    """Both requests warmed up (a list's first request counts its total, kept in Redis for the
    content version; the next prepare their statements), then sampled in turn, so both see the
    same machine. `plain` and `localized` are paths, or functions of the sample's number giving
    one (a search: a new term each time)."""
    as_path = lambda path: path if callable(path) else (lambda n: path)  # noqa: E731
    plain, localized = as_path(plain), as_path(localized)
    numbers = iter(range(10**9))
    for _ in range(warm):
        n = next(numbers)
        timed(plain(n)), timed(localized(n))
    pairs = []
    for _ in range(samples):
        n = next(numbers)
        pairs.append((timed(plain(n)), timed(localized(n))))
    return [a for a, _ in pairs], [b for _, b in pairs]


first = site.get("/api/v1/posts?locale=fr&limit=1").json()["data"]["posts"][0]
assert first["locale"] == "fr" and len(first["translations"]) == 2, first
found = site.get("/api/v1/posts?limit=10&search=article%205&locale=fr").json()["data"]["posts"]
assert found and found[0]["locale"] == "fr", found  # the search reads French posts with locale=fr
cases = [
    ("list, page 1", "/api/v1/posts?limit=10", "/api/v1/posts?limit=10&locale=fr"),
    ("list, page 20", "/api/v1/posts?limit=10&page=20", "/api/v1/posts?limit=10&page=20&locale=fr"),
    ("by slug", "/api/v1/posts/slug/en-post-5", "/api/v1/posts/slug/en-post-5?locale=fr"),
    # each search a new term (counted, not cached): without a locale the three configurations
    # OR'd, with locale=fr the chain's two (french and english)
    ("search", lambda n: f"/api/v1/posts?limit=10&search=post%20{n}",
     lambda n: f"/api/v1/posts?limit=10&search=article%20{n}&locale=fr"),
]
counting = {}
for locale in ("", "&locale=fr"):
    start = time.perf_counter()
    site.get(f"/api/v1/posts?limit=10&counting=1{locale}")
    counting[locale or "none"] = (time.perf_counter() - start) * 1000

results = {}
print(f"{SAMPLES} samples of each pair (searches {SAMPLES * 2}), in ms")
print(f"{'':16} {'without a locale':^17}   {'locale=fr':^17}   {'p50':>6}")
print(f"{'':16} {'p50':>8} {'p99':>8}   {'p50':>8} {'p99':>8}   {'ratio':>6}")
for name, plain, localized in cases:
    without, with_locale = paired(plain, localized, samples=SAMPLES * 2 if name == "search" else SAMPLES)
    row = {"without": (statistics.median(without), percentile(without, 0.99)),
           "locale": (statistics.median(with_locale), percentile(with_locale, 0.99))}
    row["ratio"] = row["locale"][0] / row["without"][0]
    results[name] = row
    print(f"{name:16} {row['without'][0]:8.2f} {row['without'][1]:8.2f}   {row['locale'][0]:8.2f} "
          f"{row['locale'][1]:8.2f}   {row['ratio']:6.2f}")
print(f"a list's first request (counts its total): without {counting['none']:.1f} ms, "
      f"locale=fr {counting['&locale=fr']:.1f} ms")

load = os.getloadavg()
goals = [(f"{name}: with a locale at most {MAX_RATIO:.2f} x the p50 without", f"{results[name]['ratio']:.2f} x",
          results[name]["ratio"] <= MAX_RATIO) for name in ("list, page 1", "list, page 20", "by slug")]
goals += [(f"search {label}: p99 under {SEARCH_P99_MS:.0f} ms", f"{results['search'][key][1]:.1f} ms",
           results["search"][key][1] < SEARCH_P99_MS)
          for key, label in (("without", "without a locale"), ("locale", "with locale=fr"))]
print(f"\ngoals (load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} over 1 / 5 / 15 min, "
      f"{os.cpu_count()} cores):")
for goal, figure, met in goals:
    print(f"  {goal:60} {figure:>9}  {'met' if met else 'NOT MET'}")
failed = [f"{goal} ({figure})" for goal, figure, met in goals if not met]

if not knob("BENCH_KEEP", False):
    drop_database("cms_bench_translations")
if failed and not SMOKE:
    print(f"translations: goals not met: {'; '.join(failed)}")
    sys.exit(1)
if failed:
    print(f"translations (smoke): goals not met, reported only: {'; '.join(failed)}")
