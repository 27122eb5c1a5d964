"""Blog import figures on this machine (docs/import-export.md): a generated WordPress export of
BENCH_POSTS posts (10,000) with 3 terms each (2 of 200 tags, 1 of 30 categories) and no media,
imported in one transaction through the same code as the dashboard's job (posts/s), then the same
file again (nothing new may be created); then BENCH_IMAGES (1,000) images served by a local HTTP
server, fetched through the address guard and stored as media with their renditions, which the
import makes itself (images/s); then BENCH_IMAGES posts whose BENCH_IMAGES images (JPEGs of
768x512) come in an images archive uploaded beside the export (a zip of wp-content/uploads, the
posts naming them by the old site's address and a resized copy's name), the whole import timed
(images/s). Its own database (cms_bench_import) and a temporary MEDIA_ROOT. BENCH_SMOKE=1: 300
posts, 20 images.
Fails (exit 1) when the import takes more than BENCH_MAX_SECONDS (60) or the re-run creates anything,
or the archive's import more than BENCH_ARCHIVE_MAX_SECONDS (120) or leaves an image out."""
import os
import sys
import tempfile
import time
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
from bench.common import SMOKE, announce, drop_database, fresh_database, knob, use_own_redis  # noqa: E402

DB = "cms_bench_import"
os.environ["DATABASE_URL"] = fresh_database(DB)
use_own_redis("import")
os.environ["MEDIA_STORAGE"] = "local"
os.environ["MEDIA_ROOT"] = tempfile.mkdtemp(prefix="cms-bench-import-")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
POSTS = knob("BENCH_POSTS", 10_000, 300)
IMAGES = knob("BENCH_IMAGES", 1_000, 20)
MAX_SECONDS = knob("BENCH_MAX_SECONDS", 60.0)
ARCHIVE_MAX_SECONDS = knob("BENCH_ARCHIVE_MAX_SECONDS", 120.0)

import django  # noqa: E402

django.setup()
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django_tenants.utils import schema_context  # noqa: E402

from apps.content.models import Category, Post, PostRevision, Tag  # noqa: E402
from apps.core.testing import create_tenant, tenant_admin  # noqa: E402
from apps.media.models import Media  # noqa: E402
from apps.portability.fetch import fetch_image_bytes  # noqa: E402
from apps.portability.importer import blog_import  # noqa: E402
from apps.portability.parsers import parse_export, parse_images_archive  # noqa: E402
from apps.portability.tests.imageserver import ImageServer  # noqa: E402

call_command("migrate_schemas", interactive=False, verbosity=0)


def wxr(posts: int, image_base: str = "", images: int = 0) -> bytes:
    """A WXR 1.2 file as WordPress writes it: authors, categories, tags, then the items."""
    parts = ['<?xml version="1.0" encoding="UTF-8" ?>\n<rss version="2.0" '
             'xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" '
             'xmlns:content="http://purl.org/rss/1.0/modules/content/" '
             'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">\n<channel>\n'
             '<title>Bench</title><link>https://bench.example</link><wp:wxr_version>1.2</wp:wxr_version>\n'
             '<wp:base_blog_url>https://bench.example</wp:base_blog_url>\n'
             '<wp:author><wp:author_login>writer</wp:author_login><wp:author_email>writer@bench.example</wp:author_email>'
             '<wp:author_display_name>Writer</wp:author_display_name></wp:author>\n']
    for n in range(30):
        parts.append(f"<wp:category><wp:category_nicename>topic-{n}</wp:category_nicename>"
                     f"<wp:category_parent></wp:category_parent><wp:cat_name>Topic {n}</wp:cat_name></wp:category>\n")
    for n in range(200):
        parts.append(f"<wp:tag><wp:tag_slug>tag-{n}</wp:tag_slug><wp:tag_name>Tag {n}</wp:tag_name></wp:tag>\n")
    for n in range(posts):
        image = (f'<img src="{image_base}/images/{n % images}.png" alt="picture {n}">' if images else "")
        body = escape(f"<p>Post number {n}, about things worth reading.</p>\n\n"
                      f"<p>A second paragraph with <strong>bold</strong> text.</p>{image}")
        parts.append(
            f"<item><title>Post {n}</title><link>https://bench.example/{2020 + n % 5}/01/post-{n}/</link>"
            f"<guid isPermaLink=\"false\">https://bench.example/?p={n + 1}</guid><dc:creator>writer</dc:creator>"
            f"<content:encoded>{body}</content:encoded><excerpt:encoded></excerpt:encoded>"
            f"<wp:post_id>{n + 1}</wp:post_id><wp:post_date_gmt>2021-03-04 05:06:07</wp:post_date_gmt>"
            f"<wp:post_name>post-{n}</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type>"
            f'<category domain="category" nicename="topic-{n % 30}">Topic {n % 30}</category>'
            f'<category domain="post_tag" nicename="tag-{n % 200}">Tag {n % 200}</category>'
            f'<category domain="post_tag" nicename="tag-{(n * 7 + 1) % 200}">Tag {(n * 7 + 1) % 200}</category>'
            "</item>\n")
    parts.append("</channel></rss>\n")
    return "".join(parts).encode()


def counts() -> tuple:
    return (Post.objects.count(), Category.objects.count(), Tag.objects.count(), Media.objects.count(),
            PostRevision.objects.count())


def run(data: bytes, *, fetch=None, images: bytes | None = None) -> tuple[float, dict]:
    started = time.perf_counter()
    blog = parse_export(data, max_bytes=settings.IMPORT_MAX_BYTES)
    if images is not None:
        blog.files.update(parse_images_archive(images, max_bytes=settings.IMPORT_MAX_BYTES))
    report = blog_import(blog=blog, actor=admin, fetch=fetch, summary="bench")
    return time.perf_counter() - started, report


def uploads_zip(count: int) -> bytes:
    """wp-content/uploads with `count` JPEGs of 768x512 (WordPress's medium_large), each of its own colour."""
    import io
    import zipfile

    from PIL import Image

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
        for n in range(count):
            image = io.BytesIO()
            Image.new("RGB", (768, 512), (n % 256, (n * 7) % 256, (n * 13) % 256)).save(image, "JPEG", quality=80)
            archive.writestr(f"wp-content/uploads/2021/03/photo-{n}.jpg", image.getvalue())
    return out.getvalue()


announce()
tenant = create_tenant("bench-import")
admin = tenant_admin(tenant)
failed = False
data = wxr(POSTS)
print(f"import benchmark: generated WXR of {POSTS:,} posts x 3 terms, {len(data) / 1e6:.1f} MB, no media")
with schema_context(tenant.schema_name):
    seconds, report = run(data)
    print(f"  first import:  {seconds:6.1f} s  {POSTS / seconds:8.0f} posts/s  {report['counts']['post']}")
    if seconds > MAX_SECONDS and not SMOKE:
        print(f"  FAILED: more than {MAX_SECONDS:.0f} s")
        failed = True
    before = counts()
    seconds, report = run(data)
    after = counts()
    print(f"  same file again: {seconds:4.1f} s  {POSTS / seconds:8.0f} posts/s  {report['counts']['post']}")
    if after != before or "created" in report["counts"]["post"]:
        print(f"  FAILED: the re-run created something: {before} -> {after}")
        failed = True
    else:
        print(f"  re-run created nothing: posts, categories, tags, media, revisions {after}")

with ImageServer() as server:
    settings.IMPORT_FETCH_ALLOWED_HOSTS = [server.host]
    image_tenant = create_tenant("bench-import-images")
    admin = tenant_admin(image_tenant)
    data = wxr(IMAGES, image_base=server.url, images=IMAGES)
    with schema_context(image_tenant.schema_name):
        seconds, report = run(data, fetch=fetch_image_bytes)
        made = report["counts"].get("image", {}).get("created", 0)
        print(f"  {IMAGES:,} posts with {IMAGES:,} images served locally: {seconds:6.1f} s  "
              f"{made / seconds:6.1f} images/s (renditions included)  {report['counts'].get('image')}")
        if made != IMAGES:
            print("  FAILED: not every image was stored")
            failed = True

archive_tenant = create_tenant("bench-import-archive")
admin = tenant_admin(archive_tenant)
archive = uploads_zip(IMAGES)
# the posts name each image by the old site's address, as a resized copy (resolved to the original)
data = wxr(IMAGES, image_base="https://bench.example/wp-content/uploads/2021/03", images=IMAGES).replace(
    b"/images/", b"/photo-").replace(b".png", b"-1024x683.jpg")
with schema_context(archive_tenant.schema_name):
    seconds, report = run(data, images=archive)
    made = report["counts"].get("image", {}).get("created", 0)
    print(f"  {IMAGES:,} posts with {IMAGES:,} images from an images archive ({len(archive) / 1e6:.0f} MB, "
          f"768x512 JPEGs): {seconds:6.1f} s  {made / seconds:6.1f} images/s (renditions included)  "
          f"{report['counts'].get('image')}")
    if made != IMAGES:
        print("  FAILED: not every image of the archive was stored")
        failed = True
    if seconds > ARCHIVE_MAX_SECONDS and not SMOKE:
        print(f"  FAILED: more than {ARCHIVE_MAX_SECONDS:.0f} s")
        failed = True

drop_database(DB)
sys.exit(1 if failed else 0)
