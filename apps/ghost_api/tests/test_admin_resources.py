"""Tags, users, images and the site on Ghost's Admin API (apps.ghost_api.admin.resources)."""
from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test.client import MULTIPART_CONTENT
from django_tenants.utils import schema_context

from apps.core.testing import create_user
from apps.ghost_api.ids import ghost_id
from apps.ghost_api.tests.admin_client import Admin, ghost_error, make_integration, png


@pytest.fixture
def tool(tenant, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return Admin(tenant, make_integration(tenant, "Zapier")[2])


def test_tags_browse_add_edit_and_delete(tool, tenant):
    with schema_context(tenant.schema_name):
        from apps.content.services import category_create

        news = category_create(name="News", slug="news", description="What happened")
    made = tool.post("tags/", {"tags": [{"name": "Deep Dives"}]})
    assert made.status_code == 201, made.content
    tag = made.json()["tags"][0]
    assert tag["name"] == "Deep Dives" and tag["slug"] == "deep-dives" and len(tag["id"]) == 24
    browse = tool.get("tags/", {"include": "count.posts"}).json()
    assert [(t["slug"], t["count"]["posts"]) for t in browse["tags"]] == [("deep-dives", 0), ("news", 0)]
    assert tool.get("tags/slug/news/").json()["tags"][0]["description"] == "What happened"
    taken = tool.post("tags/", {"tags": [{"name": "News"}]})
    assert taken.status_code == 409 and ghost_error(taken)["type"] == "ConflictError"
    edited = tool.put(f"tags/{tag['id']}/", {"tags": [{"name": "Deep dives", "slug": "dives"}]})
    assert edited.status_code == 200 and edited.json()["tags"][0]["slug"] == "dives"
    category = tool.put(f"tags/{ghost_id(news.pk)}/", {"tags": [{"description": "Today"}]}).json()["tags"][0]
    assert category["description"] == "Today" and category["name"] == "News"
    assert tool.delete(f"tags/{tag['id']}/").status_code == 204
    assert tool.get(f"tags/{tag['id']}/").status_code == 404
    post = tool.post("posts/", {"posts": [{"title": "x", "tags": ["news"]}]}).json()["posts"][0]
    used = tool.delete(f"tags/{ghost_id(news.pk)}/")
    assert used.status_code == 409 and "currently used" in ghost_error(used)["message"]
    assert post
    with schema_context(tenant.schema_name):
        from apps.audit.models import AuditEntry

        assert set(AuditEntry.objects.filter(actor_name="Zapier (integration)").values_list("action", flat=True)) >= {
            "tag.created", "tag.updated", "tag.deleted", "category.updated", "post.created"}


def test_users_are_read_only_and_show_no_secrets(tool, tenant):
    editor = create_user(tenant, "editor", email="ed@example.com", username="Ed Itor")
    users = tool.get("users/", {"include": "count.posts"}).json()["users"]
    assert [u["roles"][0]["name"] for u in users] == ["Administrator", "Editor"]
    ed = users[1]
    assert ed["email"] == "ed@example.com" and ed["slug"] == "ed-itor" and ed["status"] == "active"
    assert ed["count"] == {"posts": 0} and ed["id"] == ghost_id(editor.pk)
    text = str(users)
    for secret in ("password", "two_factor", "token", "recovery", "argon2", "pbkdf2"):
        assert secret not in text
    assert tool.get(f"users/{ed['id']}/").json()["users"][0]["email"] == "ed@example.com"
    assert tool.get("users/slug/ed-itor/").json()["users"][0]["id"] == ed["id"]
    assert tool.get("users/email/ed@example.com/").json()["users"][0]["id"] == ed["id"]
    assert tool.get("users/email/nobody@example.com/").status_code == 404
    # a tool signed in with a staff access token asks who it is: the author its posts get
    assert tool.get("users/me/").json()["users"][0]["roles"][0]["name"] == "Administrator"
    for method in ("post", "put", "delete"):
        path = "users/" if method == "post" else f"users/{ed['id']}/"
        response = getattr(tool, method)(path, {"users": [{"name": "x"}]}) if method != "delete" else tool.delete(path)
        assert response.status_code == 405, method


def test_another_companys_users_are_not_listed(tool, other_tenant):
    stranger = create_user(other_tenant, "editor", email="stranger@example.com")
    assert "stranger@example.com" not in str(tool.get("users/").json())
    assert tool.get(f"users/{ghost_id(stranger.pk)}/").status_code == 404


def test_images_upload_through_the_media_librarys_checks(tool, tenant, settings):
    upload = tool.post("images/upload/", {"file": SimpleUploadedFile("photo.png", png(), "image/png"),
                                          "purpose": "image", "ref": "photo.png"}, content_type=MULTIPART_CONTENT)
    assert upload.status_code == 201, upload.content
    image = upload.json()["images"][0]
    assert image["ref"] == "photo.png" and image["url"].endswith(".png")
    with schema_context(tenant.schema_name):
        from apps.audit.models import AuditEntry
        from apps.media.models import Media

        media = Media.objects.get()
        assert media.uploaded_by is None and image["url"].endswith(media.storage_key)
        assert AuditEntry.objects.get(action="media.created").actor_name == "Zapier (integration)"
    not_image = tool.post("images/upload/", {"file": SimpleUploadedFile("notes.png", b"not an image", "image/png")},
                          content_type=MULTIPART_CONTENT)
    assert not_image.status_code == 415 and ghost_error(not_image)["type"] == "UnsupportedMediaTypeError"
    settings.MEDIA_MAX_UPLOAD_BYTES = 1000
    big = tool.post("images/upload/", {"file": SimpleUploadedFile("big.png", png(400, 400) + b"\0" * 100_000)},
                    content_type=MULTIPART_CONTENT)
    assert big.status_code == 413 and ghost_error(big)["type"] == "RequestEntityTooLargeError"
    missing = tool.post("images/upload/", {"purpose": "image"}, content_type=MULTIPART_CONTENT)
    assert missing.status_code == 422


def test_the_site_is_ghosts_site_object(tool, tenant):
    response = Admin(tenant, None).get("site/")  # as Ghost: no key needed
    assert response.status_code == 200
    site = response.json()["site"]
    assert set(site) >= {"title", "description", "logo", "icon", "accent_color", "url", "version"}
    assert site["title"] == tenant.name and site["version"].startswith("5.")
    assert tool.post("site/", {}).status_code == 405


def test_an_integration_past_its_rate_waits_and_another_does_not(tool, tenant, settings):
    settings.GHOST_ADMIN_API_RATE = "3/minute"
    for _ in range(3):
        assert tool.get("tags/").status_code == 200
    refused = tool.get("tags/")
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert refused.json()["errors"][0]["type"] == "TooManyRequestsError"
    assert tool.post("tags/", {"tags": [{"name": "Flood"}]}).status_code == 429  # writes too
    with schema_context(tenant.schema_name):
        from apps.content.models import Tag

        assert not Tag.objects.filter(name="Flood").exists()
    _, _, other_key = make_integration(tenant, "Another tool")
    assert Admin(tenant, other_key).get("tags/").status_code == 200  # each integration its own
