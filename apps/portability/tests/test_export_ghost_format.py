"""The export against what Ghost's own importer requires (apps/portability/schemas/ghost-import.schema.json,
written from Ghost's importer and schema): every table and field of export.json validated against
it; what JSON Schema cannot say checked here (every reference between tables resolves in the file,
every image address names a file of the zip where Ghost's image importer looks, the zip holds one
data file and images Ghost accepts); and values longer than Ghost takes are cut for Ghost but come
back whole through our own importer."""
from __future__ import annotations

import io
import json
import posixpath
import re
import zipfile
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from django_tenants.utils import schema_context
from jsonschema import Draft202012Validator

from apps.content.models import Post
from apps.content.tests.factories import make_category, make_post, make_tag
from apps.core import testing
from apps.media.services import media_create_from_bytes
from apps.media.storage import MediaUrls
from apps.portability import services
from apps.portability.exporter import GHOST_LIMITS
from apps.portability.tests.imageserver import png
from apps.portability.tests.test_export import _export
from apps.portability.tests.test_import_samples import upload_bytes

SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "schemas" / "ghost-import.schema.json").read_text())
# Ghost's image handler: the extensions it takes (config uploads.images) and the folders it reads.
GHOST_IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".gif", ".png", ".svg", ".svgz", ".ico", ".webp")
LONG = {
    "title": "A very long title " * 25,  # 450 characters: Ghost takes 255
    "excerpt": "An excerpt that goes on. " * 30,  # 750: Ghost takes 300
    "meta_title": "Meta " * 80, "meta_description": "Described at length. " * 40,
    "og_title": "OG " * 150, "og_description": "Open Graph text. " * 40,
    "twitter_title": "Tweet " * 70, "twitter_description": "Twitter text. " * 50,
}
LONG = {name: value.strip() for name, value in LONG.items()}


def _company(tenant, admin):
    testing.create_user(tenant, "editor", email="ed@example.com", username="ed.itor")
    testing.create_user(tenant, "viewer", email="vi@example.com", username="viewer1")
    news = make_category(tenant, "News", slug="news")
    python = make_tag(tenant, "Python", slug="python")
    with schema_context(tenant.schema_name):
        cover = media_create_from_bytes(data=png(30, 20), file_name="cover.png", alt_text="A cover " * 40,
                                        uploaded_by=admin)
        inline = media_create_from_bytes(data=png(10, 10), file_name="inline.png", alt_text="", uploaded_by=admin)
        address = MediaUrls.current().cdn(inline.storage_key)
    slug = "a-" + "long-slug-" * 19 + "end"  # 195 characters: Ghost takes 191
    make_post(tenant, LONG["title"], slug=slug, status="published", author=admin, categories=[news], tags=[python],
              featured_image=cover, og_image=cover, twitter_image=inline, focus_keyword="long",
              content=f'<p>Long</p><img src="{address}" alt="">', excerpt=LONG["excerpt"],
              **{k: v for k, v in LONG.items() if k not in ("title", "excerpt")})
    make_post(tenant, "Soon", slug="soon", status="draft", author=admin, categories=[news], excerpt="",
              publish_scheduled=True, scheduled_publish_date=timezone.now() + timedelta(days=2))
    make_post(tenant, "Draft", slug="draft", status="draft", categories=[news], excerpt="")
    return slug


@pytest.mark.django_db
def test_the_export_is_what_ghosts_importer_requires_field_by_field(tenant, admin, api):
    _company(tenant, admin)
    _, data = _export(tenant, api)
    archive = zipfile.ZipFile(io.BytesIO(data))
    document = json.loads(archive.read("export.json"))

    errors = sorted(Draft202012Validator(SCHEMA).iter_errors(document), key=lambda e: list(e.absolute_path))
    assert not errors, [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors]

    data_ = document["db"][0]["data"]
    ids = {table: {row["id"] for row in data_[table]} for table in ("posts", "tags", "users", "roles")}
    assert len(ids["posts"]) == len(data_["posts"]) == 3
    assert len({(p["slug"], p["type"]) for p in data_["posts"]}) == 3  # Ghost drops a repeated slug
    # Every relation names rows of the file (Ghost drops one that does not, or gives the post its owner).
    assert {r["post_id"] for r in data_["posts_meta"]} == ids["posts"]
    assert data_["posts_tags"] and all(r["post_id"] in ids["posts"] and r["tag_id"] in ids["tags"]
                                       for r in data_["posts_tags"])
    assert data_["posts_authors"] and all(r["post_id"] in ids["posts"] and r["author_id"] in ids["users"]
                                          for r in data_["posts_authors"])
    # Every user has one role Ghost knows, by name: no one comes in as an Owner, a viewer is a Contributor.
    roles = {r["id"]: r["name"] for r in data_["roles"]}
    by_user = {r["user_id"]: roles[r["role_id"]] for r in data_["roles_users"]}
    assert by_user.keys() == ids["users"] and len(data_["roles_users"]) == len(ids["users"])
    emails = {u["id"]: u["email"] for u in data_["users"]}
    assert sorted((emails[u], role) for u, role in by_user.items()) == [
        (admin.email, "Administrator"), ("ed@example.com", "Editor"), ("vi@example.com", "Contributor")]
    # Content: html only; mobiledoc and lexical empty, so Ghost converts the html.
    assert all(p["html"] is not None and p["mobiledoc"] is None and p["lexical"] is None for p in data_["posts"])
    statuses = {p["slug"]: (p["status"], p["published_at"] is not None) for p in data_["posts"]}
    assert statuses["soon"] == ("scheduled", True) and statuses["draft"] == ("draft", False)

    # Images: each address is /content/images/<path>, and <path> is a file of the zip at
    # content/images/<path> (where Ghost's image handler reads and stores it under the same address).
    names = set(archive.namelist())
    addresses = set()
    for post in data_["posts"]:
        addresses.update(re.findall(r'src="([^"]+)"', post["html"] or ""))
        addresses.add(post["feature_image"])
    for meta in data_["posts_meta"]:
        addresses.update((meta["og_image"], meta["twitter_image"]))
    addresses.discard(None)
    assert len(addresses) == 2
    for address in addresses:
        assert address.startswith("/content/images/") and address[1:] in names, address
    images = [n for n in names if n != "export.json"]
    assert all(n.startswith("content/images/") and posixpath.splitext(n)[1].lower() in GHOST_IMAGE_EXTENSIONS
               for n in images), images
    # One data file (Ghost refuses a zip holding two data formats), at the root.
    assert [n for n in names if n.endswith((".json", ".md", ".markdown"))] == ["export.json"]

    # What was longer than Ghost takes is cut for Ghost, whole in posts_cms.
    [long_post] = [p for p in data_["posts"] if p["title"].startswith("A very long")]
    assert len(long_post["title"]) <= GHOST_LIMITS["posts"]["title"] < len(LONG["title"])
    [whole] = data_["posts_cms"]
    assert whole["post_id"] == long_post["id"] and whole["title"] == LONG["title"]
    assert whole["custom_excerpt"] == LONG["excerpt"] and len(whole["slug"]) > 191


@pytest.mark.django_db
def test_values_cut_for_ghost_come_back_whole_through_our_importer(tenant, make_tenant, admin, api):
    slug = _company(tenant, admin)
    _, data = _export(tenant, api)
    b = make_tenant()
    b_api = testing.Api(b, user=testing.tenant_admin(b))
    job = upload_bytes(b_api, data, "export.zip").json()["job"]["id"]
    assert b_api.post(f"/api/imports/{job}/start", {}).status_code == 202
    with schema_context(b.schema_name):
        assert services.import_run(job_id=job).status == "completed"
        post = Post.objects.select_related("featured_image").get(slug=slug)
    assert post.title == LONG["title"] and post.excerpt == LONG["excerpt"]
    for name in ("meta_title", "meta_description", "og_title", "og_description", "twitter_title",
                 "twitter_description"):
        assert getattr(post, name) == LONG[name], name
    assert post.featured_image.alt_text == ("A cover " * 40).strip()
