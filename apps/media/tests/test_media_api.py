"""The media endpoints (docs/media.md) on local-disk storage."""
from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django_tenants.utils import schema_context
from PIL import Image

from apps.core.testing import Api, create_user
from apps.media import storage
from apps.media.models import Media
from apps.media.tasks import media_make_renditions
from apps.media.tests.conftest import make_image, upload
from apps.media.tests.test_images import jpeg_with_gps_and_orientation, png_bomb

MEDIA_KEYS = {"id", "fileName", "fileType", "fileSize", "altText", "width", "height", "spacesKey", "link", "cdnUrl",
              "renditions", "renditionsOriginalFormat", "uploadedBy", "uploadedAt", "createdAt"}


def media_count(tenant) -> int:
    with schema_context(tenant.schema_name):
        return Media.objects.count()


def stored_files(root) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def make_renditions(tenant, media_id: str) -> None:
    with schema_context(tenant.schema_name):
        media_make_renditions(media_id)


# --- upload -----------------------------------------------------------------------------------


def test_upload_stores_the_file_under_the_tenant_schema_and_answers_the_media(api, tenant, admin, media_root):
    response = upload(api, make_image("PNG", (640, 480)), file_name="Summer Holiday!.png", alt_text="Beach at dawn")

    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["success"] is True and body["message"] == "File uploaded successfully"
    media = body["media"]
    assert set(media) == MEDIA_KEYS
    assert media["fileName"] == "Summer Holiday!.png"
    assert media["fileType"] == "image/png"
    assert (media["width"], media["height"]) == (640, 480)
    assert media["altText"] == "Beach at dawn"
    assert media["uploadedBy"]["username"] == admin.username
    assert media["spacesKey"] == f"{tenant.schema_name}/media/{media['id']}/summer-holiday.png"
    assert media["link"] == f"http://{tenant.subdomain}.testserver.local/media/{media['spacesKey']}"
    assert media["cdnUrl"] == media["link"]
    assert media["renditions"] == {"thumbnail": None, "small": None, "medium": None, "large": None}
    stored = media_root / media["spacesKey"]
    assert stored.is_file() and stored.stat().st_size == media["fileSize"]
    assert Image.open(stored).size == (640, 480)


def test_the_link_serves_the_file_on_its_own_tenant_host_only(api, other_tenant, media_root):
    media = upload(api, make_image("JPEG")).json()["media"]
    path = media["link"].split("testserver.local", 1)[1]

    response = api.http.get(path)
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == (media_root / media["spacesKey"]).read_bytes()
    assert response["Content-Type"] == "image/jpeg"
    assert Api(other_tenant).http.get(path).status_code == 404  # development serving (SERVE_MEDIA)


def test_png_renamed_txt_is_accepted_and_stored_as_png(api, media_root):
    response = upload(api, make_image("PNG"), file_name="notes.txt", content_type="text/plain")
    assert response.status_code == 201, response.json()
    media = response.json()["media"]
    assert media["fileType"] == "image/png"
    assert media["fileName"] == "notes.txt"
    assert media["spacesKey"].endswith("/notes.png")  # served with an image content type


@pytest.mark.parametrize("data,file_name,message", [
    (b"I am plain text pretending to be a picture\n" * 10, "photo.png", "Only image files are supported"),
    (b'<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("/api/users")</script></svg>', "logo.svg",
     "SVG images are not supported. Please upload a JPEG, PNG, GIF or WebP image"),
    (png_bomb(8000, 6000), "bomb.png", "Image dimensions are too large. Maximum is 40 megapixels"),
    (make_image("PNG")[:400], "cut.png", "The image file is damaged or incomplete"),
])
def test_refused_uploads_answer_400_and_store_nothing(api, tenant, media_root, data, file_name, message):
    response = upload(api, data, file_name=file_name)
    assert response.status_code == 400
    body = response.json()
    # The additive `code` tells a file type the library refuses from a broken or oversized image.
    assert body.pop("code", None) == ("unsupported_file_type" if file_name in ("photo.png", "logo.svg") else None)
    assert body == {"success": False, "message": message, "error": "validation_error",
                    "errors": [{"field": "file", "message": message}]}
    assert media_count(tenant) == 0
    assert stored_files(media_root) == []


def test_too_large_is_413_with_the_spec_message_and_stores_nothing(api, tenant, media_root):
    response = upload(api, make_image("PNG") + b"\0" * (5 * 1024 * 1024))
    assert response.status_code == 413
    assert response.json() == {"success": False, "message": "File too large. Maximum size is 5 MB",
                               "error": "payload_too_large", "code": "file_too_large"}
    assert media_count(tenant) == 0 and stored_files(media_root) == []


def test_size_limit_is_configurable_and_the_message_follows(api, settings, media_root):
    settings.MEDIA_MAX_UPLOAD_BYTES = 2 * 1024 * 1024
    response = upload(api, make_image("PNG") + b"\0" * (2 * 1024 * 1024))
    assert response.status_code == 413
    assert response.json()["message"] == "File too large. Maximum size is 2 MB"
    assert upload(api, make_image("PNG")).status_code == 201


def test_gps_is_stripped_from_the_stored_file(api, media_root):
    response = upload(api, jpeg_with_gps_and_orientation(), file_name="trip.jpg", content_type="image/jpeg")
    assert response.status_code == 201, response.json()
    media = response.json()["media"]
    stored = Image.open(media_root / media["spacesKey"])
    assert stored.getexif().get_ifd(0x8825) == {}
    assert b"CameraMaker" not in (media_root / media["spacesKey"]).read_bytes()
    assert stored.size == (200, 400) == (media["width"], media["height"])  # orientation kept


def test_missing_file_and_too_long_alt_text_are_400(api, tenant):
    response = api.post("/api/media/upload", {"fileName": "x.png"}, content_type="multipart/form-data; boundary=BoUnDaRy")
    assert response.status_code == 400
    assert response.json()["message"] == "File is required"
    response = upload(api, make_image("PNG"), alt_text="a" * 501)
    assert response.status_code == 400
    assert response.json()["message"] == "Alt text must be at most 500 characters"
    assert media_count(tenant) == 0


def test_upload_needs_a_token_and_the_upload_permission(anon, role_api, tenant):
    assert upload(anon, make_image()).status_code == 401
    response = upload(role_api("viewer"), make_image())
    assert response.status_code == 403
    assert response.json()["message"] == "You don't have permission to upload media"
    assert upload(role_api("author"), make_image()).status_code == 201
    assert media_count(tenant) == 1


def test_media_create_from_bytes_is_usable_outside_a_request(tenant, admin, media_root):
    from apps.media.services import media_create_from_bytes

    with schema_context(tenant.schema_name):
        media = media_create_from_bytes(data=make_image("JPEG"), file_name="seed.jpg", alt_text="Seed", uploaded_by=admin)
        assert media.storage_key.startswith(f"{tenant.schema_name}/media/")
    assert (media_root / media.storage_key).is_file()
    with pytest.raises(RuntimeError):  # never in the public schema
        media_create_from_bytes(data=make_image("JPEG"), file_name="x.jpg", alt_text="", uploaded_by=None)


# --- list and get -------------------------------------------------------------------------------


def test_list_is_paged_newest_first_and_searches_name_and_alt_text(api):
    names = ["alpha.png", "beta.png", "gamma.png"]
    for name in names:
        assert upload(api, make_image(), file_name=name, alt_text=f"Picture {name[:-4]}").status_code == 201
    upload(api, make_image(), file_name="other.png", alt_text="Sunset over the Harbour")

    body = api.get("/api/media", {"page": 1, "limit": 3}).json()
    assert body["success"] is True
    assert (body["page"], body["limit"], body["totalItems"], body["totalPages"]) == (1, 3, 4, 2)
    assert [m["fileName"] for m in body["media"]] == ["other.png", "gamma.png", "beta.png"]
    assert [m["fileName"] for m in api.get("/api/media", {"page": 2, "limit": 3}).json()["media"]] == ["alpha.png"]

    assert [m["fileName"] for m in api.get("/api/media", {"search": "BETA"}).json()["media"]] == ["beta.png"]
    assert [m["fileName"] for m in api.get("/api/media", {"search": "harbour"}).json()["media"]] == ["other.png"]
    assert api.get("/api/media", {"search": "nothing-like-it"}).json()["media"] == []
    assert api.get("/api/media").json()["limit"] == 20


@pytest.mark.parametrize("query,message", [
    ({"page": 0}, "Page must be at least 1"),
    ({"limit": 101}, "Limit must be at most 100"),
    ({"page": "two"}, "Page must be a whole number"),
])
def test_list_bad_paging_is_400(api, query, message):
    response = api.get("/api/media", query)
    assert response.status_code == 400 and response.json()["message"] == message


def test_list_query_count_does_not_grow_with_rows(api, tenant, admin):
    from apps.media.services import media_create_from_bytes

    def queries_for_list() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert api.get("/api/media", {"limit": 100}).status_code == 200
        return len(captured)

    image = make_image("PNG", (32, 32))
    authors = [admin, create_user(tenant, "author"), create_user(tenant, "editor")]
    with schema_context(tenant.schema_name):
        media_create_from_bytes(data=image, file_name="one.png", alt_text="", uploaded_by=admin)
    few = queries_for_list()
    with schema_context(tenant.schema_name):
        for index in range(12):
            media_create_from_bytes(data=image, file_name=f"{index}.png", alt_text="", uploaded_by=authors[index % 3])
    assert api.get("/api/media", {"limit": 100}).json()["totalItems"] == 13
    assert queries_for_list() == few, few
    assert few >= 3  # auth user, count, page (the rows of every user in one query)


def test_get_one(api):
    created = upload(api, make_image(), file_name="one.png").json()["media"]
    response = api.get(f"/api/media/{created['id']}")
    assert response.status_code == 200
    assert response.json() == {"success": True, "media": created}
    assert api.get(f"/api/media/{uuid.uuid4()}").status_code == 404
    assert api.get("/api/media/not-a-uuid").json() == {"success": False, "message": "Media not found",
                                                      "error": "not_found"}


def test_viewers_read_the_library(api, role_api):
    created = upload(api, make_image()).json()["media"]
    viewer = role_api("viewer")
    assert viewer.get("/api/media").json()["totalItems"] == 1
    assert viewer.get(f"/api/media/{created['id']}").status_code == 200


# --- renditions ------------------------------------------------------------------------------------


def test_renditions_are_served_once_made_and_the_original_until_then(api, tenant, media_root):
    media = upload(api, make_image("JPEG", (2000, 1000)), file_name="wide.jpg").json()["media"]
    assert media["renditions"]["thumbnail"] is None
    original_link = media["link"]

    make_renditions(tenant, media["id"])

    media = api.get(f"/api/media/{media['id']}").json()["media"]
    assert media["link"] == original_link
    prefix = f"http://{tenant.subdomain}.testserver.local/media/{tenant.schema_name}/media/{media['id']}/renditions/"
    assert media["renditions"] == {name: f"{prefix}{width}w.webp" for name, width in
                                   [("thumbnail", 150), ("small", 480), ("medium", 960), ("large", 1600)]}
    assert media["renditionsOriginalFormat"]["small"] == f"{prefix}480w.jpg"
    key = media["renditions"]["medium"].split("/media/", 1)[1]
    assert Image.open(media_root / key).format == "WEBP" and Image.open(media_root / key).size == (960, 480)

    make_renditions(tenant, media["id"])  # idempotent: a second run changes nothing
    assert api.get(f"/api/media/{media['id']}").json()["media"] == media


def test_renditions_of_a_deleted_media_leave_nothing_behind(api, tenant, media_root, django_capture_on_commit_callbacks):
    media = upload(api, make_image("PNG")).json()["media"]
    with django_capture_on_commit_callbacks(execute=True):
        assert api.delete(f"/api/media/{media['id']}").status_code == 200
    make_renditions(tenant, media["id"])  # a task that was already queued
    assert stored_files(media_root) == []


# --- update --------------------------------------------------------------------------------------


def test_alt_text_update(api, tenant, role_api):
    media = upload(api, make_image(), alt_text="old").json()["media"]
    response = api.put(f"/api/media/{media['id']}", {"altText": "  A new description  "})
    assert response.status_code == 200
    assert response.json()["message"] == "Media updated successfully"
    assert response.json()["media"]["altText"] == "A new description"
    assert api.get(f"/api/media/{media['id']}").json()["media"]["altText"] == "A new description"

    response = api.put(f"/api/media/{media['id']}", {"altText": "x" * 501})
    assert response.status_code == 400 and response.json()["message"] == "Alt text must be at most 500 characters"
    assert api.get(f"/api/media/{media['id']}").json()["media"]["altText"] == "A new description"


def test_authors_change_their_own_media_only_and_viewers_nothing(api, role_api):
    admins = upload(api, make_image()).json()["media"]
    author = role_api("author")
    own = upload(author, make_image()).json()["media"]

    assert author.put(f"/api/media/{own['id']}", {"altText": "mine"}).status_code == 200
    response = author.put(f"/api/media/{admins['id']}", {"altText": "not mine"})
    assert response.status_code == 403
    assert response.json()["message"] == "You don't have permission to edit this media"
    assert author.delete(f"/api/media/{admins['id']}").status_code == 403

    viewer = role_api("viewer")
    assert viewer.put(f"/api/media/{admins['id']}", {"altText": "x"}).status_code == 403
    assert viewer.delete(f"/api/media/{admins['id']}").json()["message"] == "You don't have permission to delete this media"

    assert role_api("editor").put(f"/api/media/{own['id']}", {"altText": "edited by an editor"}).status_code == 200
    assert author.delete(f"/api/media/{own['id']}").status_code == 200


# --- delete ------------------------------------------------------------------------------------------


def test_delete_removes_the_row_the_file_and_its_renditions(api, tenant, media_root, django_capture_on_commit_callbacks):
    media = upload(api, make_image("JPEG", (1200, 800))).json()["media"]
    keep = upload(api, make_image("PNG")).json()["media"]
    make_renditions(tenant, media["id"])
    assert len(stored_files(media_root)) == 1 + 1 + 4 * 2  # two originals, 4 sizes x (webp + jpg)

    with django_capture_on_commit_callbacks(execute=True):
        response = api.delete(f"/api/media/{media['id']}")

    assert response.json() == {"success": True, "message": "Media deleted successfully"}
    assert api.get(f"/api/media/{media['id']}").status_code == 404
    assert stored_files(media_root) == [keep["spacesKey"]]
    assert api.delete(f"/api/media/{media['id']}").status_code == 404


def test_files_stay_until_the_delete_commits(api, media_root):
    media = upload(api, make_image()).json()["media"]
    assert api.delete(f"/api/media/{media['id']}").status_code == 200  # test transaction never commits
    assert (media_root / media["spacesKey"]).is_file()


def test_featured_image_cannot_be_deleted(api, tenant, admin, media_root, django_capture_on_commit_callbacks):
    from apps.content.models import Post

    media = upload(api, make_image()).json()["media"]
    with schema_context(tenant.schema_name):
        for index in range(3):
            Post.objects.create(title=f"Post {index}", slug=f"post-{index}", featured_image_id=media["id"], author=admin)
        Post.objects.create(title="No image", slug="no-image", author=admin)

    with django_capture_on_commit_callbacks(execute=True):
        response = api.delete(f"/api/media/{media['id']}")

    assert response.status_code == 409
    assert response.json() == {"success": False, "error": "conflict", "code": "media_in_use",
                               "message": "Cannot delete media: it is currently used as featured image in 3 posts"}
    assert api.get(f"/api/media/{media['id']}").status_code == 200
    assert (media_root / media["spacesKey"]).is_file()

    with schema_context(tenant.schema_name):
        Post.objects.filter(featured_image_id=media["id"]).update(featured_image=None)
    assert api.delete(f"/api/media/{media['id']}").status_code == 200


def test_delete_clears_social_images_of_posts(api, tenant, admin):
    from apps.content.models import Post

    media = upload(api, make_image()).json()["media"]
    with schema_context(tenant.schema_name):
        post = Post.objects.create(title="Social", slug="social", og_image_id=media["id"], twitter_image_id=media["id"])
    assert api.delete(f"/api/media/{media['id']}").status_code == 200
    with schema_context(tenant.schema_name):
        post.refresh_from_db()
        assert (post.og_image_id, post.twitter_image_id) == (None, None)


# --- tenancy ---------------------------------------------------------------------------------------


def test_media_of_another_tenant_is_404_and_never_listed(api, tenant, other_tenant, media_root):
    mine = upload(api, make_image(), file_name="secret.png").json()["media"]
    other_admin = Api(other_tenant, user=_admin_of(other_tenant))
    theirs = upload(other_admin, make_image(), file_name="theirs.png").json()["media"]

    for method, extra in [("get", None), ("put", {"altText": "hijack"}), ("delete", None)]:
        response = getattr(other_admin, method)(f"/api/media/{mine['id']}", extra)
        assert response.status_code == 404, (method, response.json())
    listing = other_admin.get("/api/media").json()
    assert [m["id"] for m in listing["media"]] == [theirs["id"]]
    assert other_admin.get("/api/media", {"search": "secret"}).json()["media"] == []

    # Storage keys differ by the schema prefix; the other tenant's link is on its own host.
    assert mine["spacesKey"].startswith(f"{tenant.schema_name}/media/")
    assert theirs["spacesKey"].startswith(f"{other_tenant.schema_name}/media/")
    assert theirs["link"].startswith(f"http://{other_tenant.subdomain}.testserver.local/media/{other_tenant.schema_name}/")
    assert api.get(f"/api/media/{mine['id']}").json()["media"]["altText"] == "A photo"
    assert (media_root / mine["spacesKey"]).is_file()


def test_a_token_of_another_tenant_is_refused(api, tenant, other_tenant):
    mine = upload(api, make_image()).json()["media"]
    foreign = Api(other_tenant, token=api.headers["Authorization"].split()[1])
    assert foreign.get("/api/media").status_code == 401
    assert foreign.get(f"/api/media/{mine['id']}").status_code == 401
    assert upload(foreign, make_image()).status_code == 401


def test_storage_refuses_keys_of_another_schema(tenant, other_tenant):
    with schema_context(tenant.schema_name):
        with pytest.raises(PermissionError):
            storage.save_bytes(f"{other_tenant.schema_name}/media/x/y.png", b"data")
        with pytest.raises(PermissionError):
            storage.save_bytes(f"{tenant.schema_name}/media/../../{other_tenant.schema_name}/y.png", b"data")


def _admin_of(tenant):
    from apps.core.testing import tenant_admin

    return tenant_admin(tenant)


def test_operator_command_makes_missing_renditions(api, tenant, other_tenant, media_root):
    from io import StringIO

    from django.core.management import call_command

    media = upload(api, make_image("PNG", (300, 200))).json()["media"]
    out = StringIO()
    call_command("media_renditions", schema=tenant.schema_name, sync=True, stdout=out)
    assert "made renditions of 1 media objects" in out.getvalue()
    assert api.get(f"/api/media/{media['id']}").json()["media"]["renditions"]["small"].endswith("/300w.webp")
    call_command("media_renditions", sync=True, stdout=out)  # nothing missing any more
    assert out.getvalue().strip().endswith("made renditions of 0 media objects")


def test_a_post_taking_the_image_during_delete_still_gets_409(api, tenant, admin, monkeypatch):
    """The count and the delete race with a post update: PROTECT catches what the count missed."""
    from apps.content.models import Post
    from apps.media import selectors

    media = upload(api, make_image()).json()["media"]
    with schema_context(tenant.schema_name):
        Post.objects.create(title="Late", slug="late", featured_image_id=media["id"], author=admin)
    real_count = selectors.media_featured_post_count
    calls = []

    def stale_first_count(m):
        calls.append(m)
        return 0 if len(calls) == 1 else real_count(m)

    monkeypatch.setattr(selectors, "media_featured_post_count", stale_first_count)
    response = api.delete(f"/api/media/{media['id']}")
    assert response.status_code == 409
    assert response.json()["message"] == "Cannot delete media: it is currently used as featured image in 1 posts"
    assert api.get(f"/api/media/{media['id']}").status_code == 200


def test_alt_text_is_stored_without_the_characters_xml_forbids(api, tenant, media_root):
    """The input rule of apps.core.text on a multipart form and on a JSON body: a word processor's
    line break (U+000B) becomes a space, other C0 controls and U+FFFE/U+FFFF are taken out."""
    pasted = "Sea\x0bview\x01 at\ufffe dusk\x1f"
    response = upload(api, make_image(), alt_text=pasted)
    assert response.status_code == 201, response.content
    media_id = response.json()["media"]["id"]
    with schema_context(tenant.schema_name):
        assert Media.objects.get(pk=media_id).alt_text == "Sea view at dusk"
    assert api.put(f"/api/media/{media_id}", {"altText": "Cliff\x0cside\x02"}).status_code == 200
    with schema_context(tenant.schema_name):
        assert Media.objects.get(pk=media_id).alt_text == "Cliff side"
