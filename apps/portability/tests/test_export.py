"""Export: the zip a company can take anywhere (Ghost's export format, plus the media files), its
signed expiring download link and the email that brings it; the round trip (company A exported,
imported into a new company B: posts, terms, media and SEO fields equal, field by field); and who
may ask for it."""
from __future__ import annotations

import io
import json
import zipfile
from datetime import timedelta

import pytest
from django.core import signing
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.accounts.models import User
from apps.content.models import Category, Post, Tag
from apps.content.tests.factories import make_category, make_post, make_tag
from apps.core import testing
from tenants.models import OutgoingEmail
from apps.media.models import Media
from apps.media.services import media_create_from_bytes
from apps.portability import services
from apps.portability.models import ExportJob
from apps.portability.parsers import parse_export
from apps.portability.tests.imageserver import png
from apps.media.tests.conftest import moto_endpoint, s3  # noqa: F401 (fixtures: an S3 service)
from apps.portability.tests.test_import_samples import upload_bytes


def _company_a(tenant, admin):
    news, howto = make_category(tenant, "News", slug="news", description="What is new"), make_category(tenant, "How-to", slug="how-to")
    python, django = make_tag(tenant, "Python", slug="python"), make_tag(tenant, "Django", slug="django")
    with schema_context(tenant.schema_name):
        cover = media_create_from_bytes(data=png(30, 20), file_name="cover.png", alt_text="A cover", uploaded_by=admin)
        inline = media_create_from_bytes(data=png(10, 10, (0, 90, 0)), file_name="inline.png", alt_text="Inline one",
                                         uploaded_by=admin)
        social = media_create_from_bytes(data=png(12, 6), file_name="social.png", alt_text="", uploaded_by=admin)
        from apps.media.storage import MediaUrls

        address = MediaUrls.current().cdn(inline.storage_key)
    published_at = timezone.now() - timedelta(days=400)
    make_post(tenant, "Launch", slug="launch", status="published", published_at=published_at,
              created_at=published_at - timedelta(hours=2), author=admin, categories=[news], tags=[python, django],
              featured_image=cover, content=f'<p>Hello <strong>world</strong></p><figure><img src="{address}" alt="Inline one"></figure>',
              excerpt="The first one", meta_title="Launch | Acme", meta_description="All about the launch",
              canonical_url="https://acme.example/launch", focus_keyword="launch", og_title="Launch!",
              og_description="OG text", og_image=social, twitter_title="Launch tweet", twitter_description="TW text",
              twitter_image=social)
    make_post(tenant, "Coming soon", slug="coming-soon", status="draft", author=admin, categories=[howto],
              publish_scheduled=True, scheduled_publish_date=timezone.now() + timedelta(days=3), excerpt="")
    make_post(tenant, "A draft", slug="a-draft", status="draft", categories=[news, howto], excerpt="")
    # A page (apps.content.kinds): no category, a tag as Ghost's pages may have
    make_post(tenant, "About", slug="about", status="published", kind="page", author=admin, tags=[python],
              excerpt="Who we are")


def _export(tenant, api) -> tuple[dict, bytes]:
    reply = api.post("/api/exports")
    assert reply.status_code == 202, reply.content
    job = reply.json()["export"]
    assert job["status"] == "queued" and job["downloadUrl"] is None
    with schema_context(tenant.schema_name):
        services.export_run(job_id=job["id"])
    job = api.get(f"/api/exports/{job['id']}").json()["export"]
    assert job["status"] == "completed" and job["downloadUrl"].startswith("http")
    path = job["downloadUrl"].split("/api/", 1)[1]
    download = testing.Api(tenant).get(f"/api/{path}")  # no sign-in: the link is the key
    assert download.status_code == 200 and download["Content-Type"] == "application/zip"
    return job, b"".join(download.streaming_content)


@pytest.mark.django_db
def test_export_then_import_into_a_new_company_gives_the_same_blog(tenant, make_tenant, admin, api):
    _company_a(tenant, admin)
    job, data = _export(tenant, api)
    assert job["counts"] == {"posts": 3, "pages": 1, "tags": 2, "categories": 2, "users": 1, "media": 3}
    archive = zipfile.ZipFile(io.BytesIO(data))
    document = json.loads(archive.read("export.json"))
    exported = json.dumps(document)
    with schema_context(tenant.schema_name):
        secret = User.objects.get(pk=admin.pk).password
    assert secret not in exported and "password" not in exported and "two_factor" not in exported
    assert document["db"][0]["meta"]["version"].startswith("5.")
    assert len([n for n in archive.namelist() if n.startswith("content/images/")]) == 3
    blog = parse_export(data, file_name="export.zip", max_bytes=10**8)  # our own reader takes it as Ghost's
    assert blog.source == "ghost" and len(blog.posts) == 4
    assert {row["slug"]: row["type"] for row in document["db"][0]["data"]["posts"]}["about"] == "page"  # Ghost's

    b = make_tenant()
    b_admin = testing.tenant_admin(b)
    b_api = testing.Api(b, user=b_admin)
    with schema_context(b.schema_name):
        User.objects.filter(pk=b_admin.pk).update(email=admin.email)  # the same person runs both
    upload = upload_bytes(b_api, data, "export.zip")
    assert upload.status_code == 201, upload.content
    imported = upload.json()["job"]["id"]
    assert b_api.post(f"/api/imports/{imported}/start", {}).status_code == 202
    with schema_context(b.schema_name):
        services.import_run(job_id=imported)
    report = b_api.get(f"/api/imports/{imported}").json()["job"]
    assert report["status"] == "completed", report["error"]

    def snapshot(company):
        with schema_context(company.schema_name):
            urls = __import__("apps.media.storage", fromlist=["MediaUrls"]).MediaUrls.current()
            media = {m.pk: m for m in Media.objects.all()}
            posts = {}
            for post in Post.objects.prefetch_related("categories", "tags").select_related("author"):
                content = post.content
                for m in media.values():
                    content = content.replace(urls.cdn(m.storage_key), f"<image {m.file_name} {m.width}x{m.height}>")
                image = (lambda pk: (media[pk].file_name, media[pk].width, media[pk].height, media[pk].alt_text)
                         if pk else None)
                posts[post.slug] = {
                    "kind": post.kind, "title": post.title, "excerpt": post.excerpt, "content": content, "status": post.status,
                    "publish_scheduled": post.publish_scheduled,
                    "scheduled": post.scheduled_publish_date and post.scheduled_publish_date.replace(microsecond=0),
                    "published_at": post.published_at and post.published_at.isoformat(timespec="milliseconds"),
                    "created_at": post.created_at.isoformat(timespec="milliseconds"),
                    "author": post.author.email if post.author else None,
                    "categories": sorted(c.slug for c in post.categories.all()),
                    "tags": sorted(t.slug for t in post.tags.all()),
                    **{f: getattr(post, f) for f in ("meta_title", "meta_description", "canonical_url", "focus_keyword",
                                                      "og_title", "og_description", "twitter_title", "twitter_description")},
                    "featured": image(post.featured_image_id), "og_image": image(post.og_image_id),
                    "twitter_image": image(post.twitter_image_id),
                }
            terms = (sorted(Category.objects.values_list("slug", "name", "description")),
                     sorted(Tag.objects.values_list("slug", "name")))
            files = sorted((m.file_name, m.file_type, m.width, m.height, m.alt_text) for m in media.values())
            return posts, terms, files

    a_posts, a_terms, a_media = snapshot(tenant)
    b_posts, b_terms, b_media = snapshot(b)
    assert set(b_posts) == set(a_posts) == {"launch", "coming-soon", "a-draft", "about"}
    assert b_posts["about"]["kind"] == "page" and b_posts["about"]["categories"] == []  # our export's page stays one
    for slug in a_posts:
        for name, value in a_posts[slug].items():
            assert b_posts[slug][name] == value, (slug, name)
    assert b_terms[1] == a_terms[1]
    assert b_terms[0] == a_terms[0]  # no "Uncategorized" (every post of A has a category) nor "Pages" added
    assert b_media == a_media


@pytest.mark.django_db
def test_the_link_is_signed_expires_and_belongs_to_its_company(tenant, other_tenant, admin, api, settings):
    job, _ = _export(tenant, api)
    path = "/api/" + job["downloadUrl"].split("/api/", 1)[1]
    token = path.rsplit("/", 1)[1]
    assert testing.Api(other_tenant).get(path).status_code == 404  # another company's host
    assert testing.Api(tenant).get(path[:-3] + "abc").status_code == 404  # forged
    another_id = job["id"][:-1] + ("1" if job["id"].endswith("0") else "0")  # signed, but no such export
    other_job = signing.TimestampSigner(salt=services.EXPORT_SALT).sign(f"{tenant.schema_name}.{another_id}")
    assert testing.Api(tenant).get(f"/api/exports/download/{other_job}").status_code == 404
    settings.EXPORT_LINK_HOURS = -1  # its time is over
    assert testing.Api(tenant).get(f"/api/exports/download/{token}").status_code == 404
    other_admin = testing.Api(other_tenant, user=testing.tenant_admin(other_tenant))
    assert other_admin.get(f"/api/exports/{job['id']}").status_code == 404


@pytest.mark.django_db
def test_the_link_is_emailed_to_who_asked(tenant, admin, api):
    job, _ = _export(tenant, api)
    with schema_context(tenant.schema_name):
        email = OutgoingEmail.objects.get(kind="export_ready")
        assert ExportJob.objects.get(pk=job["id"]).status == "completed"
    assert email.to == admin.email and "/api/exports/download/" in email.text
    assert "The export of" in email.subject


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["editor", "author", "viewer"])
def test_only_admins_export(role_api, role):
    assert role_api(role).post("/api/exports").status_code == 403


@pytest.mark.django_db
def test_the_export_file_is_never_served_as_media(tenant, admin, api):
    """The zip holds every draft and every staff address: only the signed link reads it, never the
    media address that a file of the same storage would have."""
    job, _ = _export(tenant, api)
    with schema_context(tenant.schema_name):
        key = ExportJob.objects.get(pk=job["id"]).file_key
    assert key.startswith(f"{tenant.schema_name}/portability/")
    assert testing.Api(tenant).get(f"/media/{key}").status_code == 404
    with schema_context(tenant.schema_name):  # a media file of the same company is served
        image = media_create_from_bytes(data=png(8, 8), file_name="served.png", alt_text="", uploaded_by=admin)
    assert testing.Api(tenant).get(f"/media/{image.storage_key}").status_code == 200


@pytest.mark.django_db
def test_on_s3_the_export_is_a_private_object(tenant, admin, api, s3, settings):
    settings.STORAGES = {**settings.STORAGES, settings.MEDIA_STORAGE_ALIAS: {
        **settings.STORAGES[settings.MEDIA_STORAGE_ALIAS],
        "OPTIONS": {**settings.STORAGES[settings.MEDIA_STORAGE_ALIAS]["OPTIONS"], "default_acl": "public-read"}}}
    job, data = _export(tenant, api)
    assert zipfile.ZipFile(io.BytesIO(data)).read("export.json")
    with schema_context(tenant.schema_name):
        key = ExportJob.objects.get(pk=job["id"]).file_key
        image = media_create_from_bytes(data=png(8, 8), file_name="public.png", alt_text="", uploaded_by=admin)

    def public(object_key: str) -> bool:
        grants = s3.client.get_object_acl(Bucket=s3.bucket, Key=object_key)["Grants"]
        return any(g["Grantee"].get("URI", "").endswith("/AllUsers") for g in grants)

    assert public(image.storage_key)  # the media bucket's ACL, as configured
    assert not public(key)
    assert "private" in s3.get(key)["CacheControl"] and "public" in s3.get(image.storage_key)["CacheControl"]
