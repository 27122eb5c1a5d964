"""One rule per field of a post, whoever writes it (apps.content.rules): the same hostile values
sent through each writer (the dashboard's create and update, the content services any later writer
calls, a translation's machine-made fields, a WordPress import and a Ghost import) are refused, or
for an import's outside file left out and reported; none is stored or served."""
from __future__ import annotations

import json

import pytest
from django_tenants.utils import schema_context

from apps.content import services
from apps.content.models import Post
from apps.core import testing
from apps.core.errors import ValidationFailed
from apps.portability.tests.test_import_samples import run, upload_bytes

HOSTILE_CANONICAL = ["javascript:alert(document.domain)", "JaVaScRiPt:alert(1)", "data:text/html,<script>x</script>",
                     "//evil.example/path", "/relative/path", "vbscript:msgbox(1)"]


def _site(tenant):
    return testing.Api(tenant, headers={"x-api-key": tenant.api_key})


@pytest.mark.django_db
@pytest.mark.parametrize("value", HOSTILE_CANONICAL)
def test_the_editor_refuses_a_hostile_canonical_url_on_create_and_update(api, payload, tenant, value):
    reply = api.post("/api/posts", {**payload, "seoMetadata": {**payload["seoMetadata"], "canonicalUrl": value}})
    assert reply.status_code == 400
    assert reply.json()["errors"][0]["field"].endswith("canonicalUrl")
    created = api.post("/api/posts", payload).json()["post"]
    reply = api.put(f"/api/posts/{created['id']}", {"canonicalUrl": value})
    assert reply.status_code == 400
    with schema_context(tenant.schema_name):
        assert not Post.objects.exclude(canonical_url="").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("changes, field", [
    ({"canonical_url": "javascript:alert(document.domain)"}, "canonicalUrl"),
    ({"title": "x" * 501}, "title"),
    ({"og_title": "x" * 501}, "ogTitle"),
    ({"video_id": "not a video"}, "videoId"),
    ({"title": "a\x00b"}, "title"),
])
def test_the_services_refuse_what_the_editor_refuses_whoever_calls(tenant, admin, category, media, changes, field):
    with schema_context(tenant.schema_name):
        with pytest.raises(ValidationFailed) as refused:
            services.post_create(author=admin, **{"title": "T", "content": "<p>x</p>", "excerpt": "e", **changes},
                                 category_ids=[str(category.pk)], featured_image_id=str(media.pk))
        assert refused.value.errors[0]["field"] == field
        post = services.post_create(author=admin, title="T", content="<p>x</p>", excerpt="e",
                                    category_ids=[str(category.pk)], featured_image_id=str(media.pk))
        with pytest.raises(ValidationFailed):
            services.post_update(actor=admin, post=post, **changes)
        post.refresh_from_db()
        assert (post.title, post.canonical_url, post.og_title, post.video_id) == ("T", "", "", "")


@pytest.mark.django_db
def test_a_translations_machine_made_fields_follow_the_rules(api, tenant, admin, category, media):
    assert api.put("/api/client/languages", {"languages": ["en", "fr"], "defaultLanguage": "en"}).status_code == 200
    with schema_context(tenant.schema_name):
        source = services.post_create(author=admin, title="T", content="<p>x</p>", excerpt="e",
                                      category_ids=[str(category.pk)], featured_image_id=str(media.pk))
        with pytest.raises(ValidationFailed):
            services.post_translation_create(actor=admin, source=source, language="fr",
                                             fields={"title": "t" * 900, "canonical_url": "javascript:alert(1)"})
        assert Post.objects.count() == 1


def _wxr(canonical: str, title: str = "Imported") -> bytes:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/" xmlns:content="http://purl.org/rss/1.0/modules/content/"
 xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel><title>Blog</title><link>https://old.example</link><wp:wxr_version>1.2</wp:wxr_version>
<wp:base_blog_url>https://old.example</wp:base_blog_url>
<item><title>{title}</title><link>https://old.example/imported/</link><dc:creator>nobody</dc:creator>
<content:encoded><![CDATA[<p>Body</p>]]></content:encoded><excerpt:encoded><![CDATA[]]></excerpt:encoded>
<wp:post_id>7</wp:post_id><wp:post_date_gmt>2024-01-02 03:04:05</wp:post_date_gmt><wp:post_name>imported</wp:post_name>
<wp:status>publish</wp:status><wp:post_type>post</wp:post_type>
<wp:postmeta><wp:meta_key>_yoast_wpseo_canonical</wp:meta_key><wp:meta_value><![CDATA[{canonical}]]></wp:meta_value></wp:postmeta>
<wp:postmeta><wp:meta_key>_yoast_wpseo_opengraph-title</wp:meta_key><wp:meta_value><![CDATA[{"o" * 700}]]></wp:meta_value></wp:postmeta>
</item></channel></rss>""".encode()


def _ghost(canonical: str) -> bytes:
    return json.dumps({"db": [{"meta": {"version": "5.80.0"}, "data": {
        "posts": [{"id": "p1", "title": "Imported", "slug": "imported", "html": "<p>Body</p>", "status": "published",
                   "published_at": "2024-01-02T03:04:05.000Z", "canonical_url": canonical, "type": "post"}],
        "users": [], "tags": [], "posts_tags": [], "posts_authors": []}}]}).encode()


def _imported(tenant, data: bytes, name: str) -> dict:
    api = testing.Api(tenant, user=testing.tenant_admin(tenant))
    reply = upload_bytes(api, data, name)
    assert reply.status_code == 201, reply.content
    job = reply.json()["job"]["id"]
    run(tenant, job)
    return api.get(f"/api/imports/{job}").json()["job"]


@pytest.mark.django_db
@pytest.mark.parametrize("source", ["wordpress", "ghost"])
@pytest.mark.parametrize("value", ["javascript:alert(document.domain)", "data:text/html,x"])
def test_an_import_stores_no_value_the_editor_refuses_and_says_so(tenant, source, value):
    data, name = (_wxr(value), "export.xml") if source == "wordpress" else (_ghost(value), "export.json")
    job = _imported(tenant, data, name)
    assert job["status"] == "completed", job["error"]
    with schema_context(tenant.schema_name):
        post = Post.objects.get()
        assert post.canonical_url == ""
        assert len(post.og_title) <= 500
    reasons = [item["reason"] for item in job["report"]["items"] if item["outcome"] == "field changed"]
    assert any(reason.startswith("canonicalUrl: Please enter a valid URL") for reason in reasons), reasons
    reply = _site(tenant).get(f"/api/v1/posts/slug/{post.slug}")
    assert reply.status_code == 200, reply.content
    served = reply.json()["data"]["post"]
    assert served["canonicalUrl"] == ""
    ghost = testing.Api(tenant).get(f"/ghost/api/content/posts/slug/{post.slug}/?key={tenant.ghost_content_key}")
    assert ghost.json()["posts"][0]["canonical_url"] in (None, "")


@pytest.mark.django_db
def test_an_import_keeps_a_valid_canonical_url(tenant):
    job = _imported(tenant, _wxr("https://old.example/original/"), "export.xml")
    assert job["status"] == "completed", job["error"]
    with schema_context(tenant.schema_name):
        assert Post.objects.get().canonical_url == "https://old.example/original/"


@pytest.mark.django_db
@pytest.mark.parametrize("changes, field", [
    ({"canonical_url": "javascript:alert(document.domain)"}, "canonical_url"),
    ({"title": "x" * 501}, "title"),
    ({"og_title": "x" * 501}, "og_title"),
])
def test_ghosts_admin_api_refuses_what_the_editor_refuses(tenant, settings, tmp_path, changes, field):
    from apps.ghost_api.tests.admin_client import Admin, make_integration

    settings.MEDIA_ROOT = tmp_path / "media"
    _, _, key = make_integration(tenant, "A tool")
    tool = Admin(tenant, key)
    reply = tool.post("posts/?source=html", {"posts": [{"title": "T", "html": "<p>x</p>", **changes}]})
    assert reply.status_code == 422, reply.content
    assert reply.json()["errors"][0]["type"] == "ValidationError"
    created = tool.post("posts/?source=html", {"posts": [{"title": "T", "html": "<p>x</p>"}]}).json()["posts"][0]
    edit = tool.put(f"posts/{created['id']}/", {"posts": [{**changes, "updated_at": created["updated_at"]}]})
    assert edit.status_code == 422, edit.content
    with schema_context(tenant.schema_name):
        post = Post.objects.get()
        assert (post.title, post.canonical_url, post.og_title) == ("T", "", "")
