"""Revision figures on this machine: one company, one post saved BENCH_SAVES (200) times through
the dashboard API (every save keeps a revision and clears the editor's autosaved copy), then
prints the median and p90 of a save, of an autosave, and of the revisions list, with the number
of SQL statements of the list at page sizes 5 and 100 (it must not grow). Own database
(cms_bench_revisions). BENCH_SMOKE=1: 20 saves, 5 samples."""
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
from bench.common import announce, drop_database, fresh_database, knob, use_own_redis  # noqa: E402

os.environ["DATABASE_URL"] = fresh_database("cms_bench_revisions")
use_own_redis("revisions")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
SAVES = knob("BENCH_SAVES", 200, 20)
SAMPLES = knob("BENCH_SAMPLES", 50, 5)

import django  # noqa: E402

django.setup()
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django_tenants.utils import schema_context  # noqa: E402

from apps.content.models import Category  # noqa: E402
from apps.core.testing import Api, create_tenant, tenant_admin  # noqa: E402
from apps.media.models import Media  # noqa: E402

call_command("migrate_schemas", interactive=False, verbosity=0)


def timed(call) -> tuple[float, object]:
    start = time.perf_counter()
    reply = call()
    return (time.perf_counter() - start) * 1000, reply


def figures(values: list[float]) -> str:
    values = sorted(values)
    return f"median {statistics.median(values):6.1f} ms   p90 {values[int(len(values) * 0.9) - 1]:6.1f} ms"


tenant = create_tenant("bench-revisions")
api = Api(tenant, user=tenant_admin(tenant))
with schema_context(tenant.schema_name):
    category = Category.objects.create(name="News", slug="news")
    media = Media.objects.create(file_name="a.png", file_type="image/png", file_size=10, width=1, height=1,
                                 storage_key=f"{tenant.schema_name}/media/a.png")
body = "".join(f"<p>Paragraph {n} of a post that is long enough to be a real article.</p>" for n in range(40))
created = api.post("/api/posts/upload", {
    "postTitle": "Benchmark post", "postContent": body, "postExcerpt": "Excerpt", "customSlug": "",
    "postStatus": "draft", "categories": [str(category.id)], "tags": [], "featuredMediaId": str(media.id),
    "allowIndexing": True, "scheduledPublishDate": "", "videoId": "",
    "seoMetadata": {"title": "SEO", "description": "SEO", "canonicalUrl": "", "focusKeyword": ""}})
assert created.status_code == 201, created.content
post_id = created.json()["post"]["id"]

saves, autosaves = [], []
for n in range(SAVES):
    ms, reply = timed(lambda: api.put(f"/api/posts/{post_id}/autosave", {"fields": {"title": f"Typing {n}",
                                                                                    "content": body}}))
    assert reply.status_code == 200, reply.content
    autosaves.append(ms)
    ms, reply = timed(lambda: api.put(f"/api/posts/{post_id}", {"title": f"Title {n}", "content": body + f"<p>{n}</p>"}))
    assert reply.status_code == 200, reply.content
    saves.append(ms)

lists = []
for _ in range(SAMPLES):
    ms, reply = timed(lambda: api.get(f"/api/posts/{post_id}/revisions", {"limit": 20}))
    assert reply.status_code == 200
    lists.append(ms)
statements = {}
for limit in (5, 100):
    with CaptureQueriesContext(connection) as queries:
        assert api.get(f"/api/posts/{post_id}/revisions", {"limit": limit}).status_code == 200
    statements[limit] = len(queries)

announce()

print(f"post with {SAVES + 1} revisions, {len(body)} bytes of HTML; load average {os.getloadavg()[0]:.1f}")
print(f"PUT /api/posts/{{id}} (save, keeps a revision)     {figures(saves)}")
print(f"PUT /api/posts/{{id}}/autosave                       {figures(autosaves)}")
print(f"GET /api/posts/{{id}}/revisions?limit=20             {figures(lists)}")
print(f"GET /api/posts/{{id}}/revisions statements: limit=5 -> {statements[5]}, limit=100 -> {statements[100]}")
connection.close()
drop_database("cms_bench_revisions")
