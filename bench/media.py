"""Media library figures on this machine: upload checks and storage, renditions, a refused
pixel bomb, and the list endpoint over 1000 rows. Runs on its own database (cms_bench_media)
and a temporary MEDIA_ROOT; local-disk storage. BENCH_SMOKE=1: 2 and 0.5 MP photos, 2 samples,
100 rows."""
import io
import os
import random
import statistics
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
from bench.common import SMOKE, announce, fresh_database, knob, use_own_redis  # noqa: E402

os.environ["DATABASE_URL"] = fresh_database("cms_bench_media")
use_own_redis("media")
os.environ["MEDIA_STORAGE"] = "local"
os.environ["MEDIA_ROOT"] = tempfile.mkdtemp(prefix="cms-bench-media-")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "0")
SAMPLES = knob("BENCH_SAMPLES", 7, 2)
LIST_ROWS = knob("BENCH_LIST_ROWS", 1000, 100)
PHOTOS = [(1600, 1200), (800, 600)] if SMOKE else [(4000, 3000), (1920, 1080)]

import django  # noqa: E402

django.setup()
from django.core.files.uploadedfile import SimpleUploadedFile  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.client import MULTIPART_CONTENT  # noqa: E402
from django_tenants.utils import schema_context  # noqa: E402
from PIL import Image  # noqa: E402

from apps.core.testing import Api, create_tenant, tenant_admin  # noqa: E402
from apps.media import images  # noqa: E402
from apps.media.models import Media  # noqa: E402
from apps.media.services import media_renditions_make  # noqa: E402

call_command("migrate_schemas", interactive=False, verbosity=0)


def photo(width: int, height: int) -> bytes:
    """A photo-like JPEG: smooth gradients plus grain (compresses like a real photo)."""
    rng = random.Random(7)
    small = Image.new("RGB", (64, 48))
    small.putdata([(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(64 * 48)])
    image = small.resize((width, height), Image.Resampling.BICUBIC)
    grain = Image.effect_noise((width, height), 24).convert("RGB")
    image = Image.blend(image, grain, 0.15)
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=88)
    return buffer.getvalue()


def median_ms(fn, samples: int = SAMPLES) -> float:
    times = []
    for _ in range(samples):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


tenant = create_tenant("bench-media")
admin = tenant_admin(tenant)
api = Api(tenant, user=admin)
announce()
print(f"media benchmark: {SAMPLES} samples each, medians; local disk; Pillow {Image.__version__}")

for w, h in PHOTOS:
    label = f"{w * h / 1e6:.0f} MP JPEG" if w * h >= 1e6 else f"{w * h / 1e6:.1f} MP JPEG"
    data = photo(w, h)
    check = median_ms(lambda: images.prepare_upload(data, max_bytes=5 << 20, max_pixels=40_000_000))
    ids = []

    def post():
        response = api.post("/api/media/upload", {"file": SimpleUploadedFile("p.jpg", data, "image/jpeg"),
                                                  "altText": "bench"}, content_type=MULTIPART_CONTENT)
        assert response.status_code == 201, response.content
        ids.append(response.json()["media"]["id"])

    upload_ms = median_ms(post)

    def renditions():
        with schema_context(tenant.schema_name):
            media_renditions_make(media_id=ids[0], force=True)
        connection.set_schema_to_public()

    rendition_ms = median_ms(renditions, samples=max(1, SAMPLES // 2))
    print(f"  {label} ({len(data) / 1048576:.1f} MB): check+re-encode {check:.0f} ms, "
          f"POST media/upload {upload_ms:.0f} ms, 4 renditions x 2 formats {rendition_ms:.0f} ms")

compressor = zlib.compressobj(9)
row = b"\0" * (1 + 60000 * 3)
bomb_data = b"".join(compressor.compress(row) for _ in range(64)) + compressor.flush()
chunk = lambda kind, payload: (len(payload).to_bytes(4, "big") + kind + payload  # noqa: E731
                               + zlib.crc32(kind + payload).to_bytes(4, "big"))
bomb = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", (60000).to_bytes(4, "big") * 2 + bytes([8, 2, 0, 0, 0]))
        + chunk(b"IDAT", bomb_data) + chunk(b"IEND", b""))


def refuse_bomb():
    try:
        images.prepare_upload(bomb, max_bytes=5 << 20, max_pixels=40_000_000)
    except images.ValidationFailed:
        return
    raise AssertionError("bomb accepted")


print(f"  3.6 gigapixel PNG bomb ({len(bomb) // 1024} KB) refused in {median_ms(refuse_bomb):.2f} ms")

with schema_context(tenant.schema_name):
    template = Media.objects.first()
    Media.objects.bulk_create([
        Media(file_name=f"bulk-{i}.jpg", file_type="image/jpeg", file_size=1000, alt_text=f"Bulk picture {i}",
              width=10, height=10, storage_key=f"{tenant.schema_name}/media/bulk-{i}/bulk-{i}.jpg",
              renditions=template.renditions, uploaded_by=admin)
        for i in range(LIST_ROWS)
    ])
connection.set_schema_to_public()
for query in [{"page": 1, "limit": 20}, {"page": 1, "limit": 100}, {"page": 40, "limit": 20},
              {"search": "picture 99", "limit": 20}]:
    executed = []
    with connection.execute_wrapper(lambda execute, sql, *args: executed.append(sql) or execute(sql, *args)):
        assert api.get("/api/media", query).status_code == 200
    ms = median_ms(lambda: api.get("/api/media", query))
    print(f"  GET media {query} over {LIST_ROWS} rows: {ms:.1f} ms, {len(executed)} SQL statements")
