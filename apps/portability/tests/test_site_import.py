"""An import's site settings and author profiles (docs/import-export.md#site-settings-and-author-profiles):
the Ghost sample's settings rows and its user's name, bio and website, the WordPress sample's title,
description and display names fill what the company has not set, and the report says what was
set, kept and left out; hostile values are refused by type (the file) or by rule (the value); and
an export of a company brings its settings and profiles back into another."""
from __future__ import annotations

import io
import json
import zipfile

import pytest
from django_tenants.utils import schema_context

from apps.accounts.models import User
from apps.core import testing
from apps.media.models import Media
from apps.media.services import media_create_from_bytes
from apps.portability import services
from apps.portability.parsers import ParseFailed, parse_export
from apps.portability.tests.imageserver import png
from apps.portability.tests.test_import_samples import GHOST, WXR, run, upload, upload_bytes

SITE = "/api/client/site"


def _report(api, job_id: str) -> dict:
    job = api.get(f"/api/imports/{job_id}").json()["job"]
    assert job["status"] == "completed", job["error"]
    return job["report"]


def _notes(report: dict, kind: str) -> dict[str, tuple[str, str]]:
    return {item["item"]: (item["outcome"], item["reason"]) for item in report["items"] if item["kind"] == kind}


@pytest.mark.django_db
def test_the_ghost_samples_settings_and_author_profile_come_in(tenant, api):
    job = upload(api, GHOST).json()["job"]
    run(tenant, job["id"])
    report = _report(api, job["id"])
    assert report["counts"]["settings"] == {"set": 3} and report["counts"]["profile"] == {"set": 1}
    assert _notes(report, "settings") == {"title": ("set", "from the file"), "description": ("set", "from the file"),
                                          "navigation": ("set", "from the file")}
    site = api.get(SITE).json()["site"]
    assert site["title"] == "a test blog" and site["description"] == "Thoughts, stories and ideas."
    assert site["navigation"] == [{"label": "Home", "url": "/"}] and site["logo"] is None
    with schema_context(tenant.schema_name):
        joe = User.objects.get(username="joe-bloggs-brother")  # the username is Ghost's slug, as before
    assert joe.display_name == "Joe Blogg's Brother" and joe.bio == "I'm Joe's brother, the good looking one!"
    assert joe.website == "http://joebloggsbrother.com"
    # its images are paths of the old site, not in a JSON file: left out, and said so
    assert joe.profile_image == "" and joe.cover_image == ""
    assert _notes(report, "author")["joe-bloggs-brother: profile image"][0] == "skipped"
    # the public API shows the author's name on their posts
    posts = testing.Api(tenant, headers={"x-api-key": tenant.api_key}).get("/api/v1/posts").json()["data"]["posts"]
    assert {post["author"]["name"] for post in posts if post["author"]} == {"Joe Blogg's Brother"}


@pytest.mark.django_db
def test_an_import_keeps_what_the_company_set(tenant, api):
    own = {"title": "Our own title", "navigation": [{"label": "Blog", "url": "/blog"}]}
    assert api.put(SITE, own).status_code == 200
    job = upload(api, GHOST).json()["job"]
    run(tenant, job["id"])
    report = _report(api, job["id"])
    assert report["counts"]["settings"] == {"set": 1, "kept": 2}
    assert _notes(report, "settings")["title"] == ("kept", "the company's own value is kept")
    site = api.get(SITE).json()["site"]
    assert site["title"] == "Our own title" and site["navigation"] == [{"label": "Blog", "url": "/blog"}]
    assert site["description"] == "Thoughts, stories and ideas."


@pytest.mark.django_db
def test_the_wordpress_samples_title_description_and_display_names_come_in(tenant, api):
    job = upload(api, WXR).json()["job"]
    run(tenant, job["id"])
    _report(api, job["id"])
    site = api.get(SITE).json()["site"]
    assert site["title"] == "Theme Unit Test Data"
    assert site["description"] == "Just another WordPress website with a purposefully really long description"
    with schema_context(tenant.schema_name):
        names = dict(User.objects.filter(username__in=["themedemos", "themereviewteam"])
                     .values_list("username", "display_name"))
    assert names == {"themedemos": "Theme Buster", "themereviewteam": "Theme Reviewer"}


def _ghost(settings: list, users: list | None = None) -> bytes:
    data = {"settings": settings, "users": users or []}
    return json.dumps({"db": [{"meta": {"version": "5.80.0"}, "data": data}]}).encode()


def test_a_settings_value_of_the_wrong_type_is_refused_with_its_key():
    with pytest.raises(ParseFailed) as refused:
        parse_export(_ghost([{"key": "title", "value": ["a", "list"]}]), max_bytes=10**6)
    assert refused.value.where == "db[0].data.settings[0].value"
    with pytest.raises(ParseFailed) as refused:
        parse_export(_ghost([{"key": "navigation", "value": "[{\"label\": \"x\""}]), max_bytes=10**6)
    assert refused.value.where == "db[0].data.settings[0].value"
    with pytest.raises(ParseFailed) as refused:
        parse_export(_ghost([{"key": "navigation", "value": '[{"label": {"x": 1}, "url": "/"}]'}]), max_bytes=10**6)
    assert refused.value.where == "db[0].data.settings[0].value[0].label"
    # settings the product does not have are not looked at, whatever they hold
    blog = parse_export(_ghost([{"key": "labs", "value": {"a": [1]}}, {"key": "title", "value": 42}]), max_bytes=10**6)
    assert blog.settings == {"title": "42"}


@pytest.mark.django_db
def test_values_that_break_a_rule_are_left_out_and_reported(tenant, api):
    data = _ghost([
        {"key": "title", "value": "Fine"},
        {"key": "accent_color", "value": "red; background: url(javascript:alert(1))"},
        {"key": "navigation", "value": json.dumps([{"label": "Home", "url": "/"},
                                                   {"label": "Evil", "url": "javascript:alert(1)"}])},
        {"key": "twitter", "value": "@acme"}, {"key": "facebook", "value": "javascript:alert(1)"},
        {"key": "logo", "value": "javascript:alert(1)"},
    ], users=[{"id": "u1", "name": "Ann", "slug": "ann", "email": "ann@example.com", "website": "javascript:alert(1)",
               "bio": "Hello", "twitter": "@ann"}])
    job = upload_bytes(api, data, "ghost.json").json()["job"]
    run(tenant, job["id"])
    report = _report(api, job["id"])
    notes = _notes(report, "settings")
    assert notes["title"][0] == "set" and notes["twitter"][0] == "set"
    assert notes["accent color"] == ("skipped", "Accent color must be a hex color such as #ff6600")
    assert notes["navigation"] == ("skipped", "Navigation link 2: the url must start with http://, https:// or /")
    assert notes["facebook"][0] == "skipped" and notes["logo"][0] == "skipped"
    site = api.get(SITE).json()["site"]
    assert site["title"] == "Fine" and site["accentColor"] == "" and site["navigation"] == []
    assert site["social"]["twitter"] == "https://x.com/acme" and site["social"]["facebook"] == ""
    assert site["logo"] is None
    with schema_context(tenant.schema_name):
        ann = User.objects.get(email="ann@example.com")
    assert (ann.display_name, ann.bio, ann.twitter, ann.website) == ("Ann", "Hello", "https://x.com/ann", "")


@pytest.mark.django_db
def test_an_export_brings_the_site_settings_and_profiles_back(tenant, make_tenant, admin, api):
    with schema_context(tenant.schema_name):
        logo = media_create_from_bytes(data=png(24, 12), file_name="logo.png", alt_text="", uploaded_by=admin)
        face = media_create_from_bytes(data=png(10, 10), file_name="face.png", alt_text="", uploaded_by=admin)
    assert api.put(SITE, {"title": "Acme", "description": "Made here", "logo": str(logo.pk), "accentColor": "#123abc",
                          "navigation": [{"label": "Home", "url": "/"},
                                         {"label": "Shop", "url": "https://shop.example/"}],
                          "secondaryNavigation": [{"label": "Legal", "url": "/legal"}],
                          "social": {"twitter": "@acme", "facebook": "acmeco"},
                          "coverImage": "https://images.example.com/cover.jpg"}).status_code == 200
    assert api.put(f"/api/users/{admin.pk}/profile", {"displayName": "Ada Admin", "bio": "Runs the place",
                                                      "profileImage": str(face.pk), "twitter": "@ada",
                                                      "location": "Porto"}).status_code == 200
    queued = api.post("/api/exports").json()["export"]
    with schema_context(tenant.schema_name):
        services.export_run(job_id=queued["id"])
    link = api.get(f"/api/exports/{queued['id']}").json()["export"]["downloadUrl"].split("/api/", 1)[1]
    data = b"".join(testing.Api(tenant).get(f"/api/{link}").streaming_content)
    exported = json.loads(zipfile.ZipFile(io.BytesIO(data)).read("export.json"))["db"][0]["data"]
    rows = {row["key"]: row["value"] for row in exported["settings"]}
    assert rows["title"] == "Acme" and rows["logo"].startswith("/content/images/") and rows["twitter"] == "@acme"
    assert json.loads(rows["navigation"])[1] == {"label": "Shop", "url": "https://shop.example/"}
    user = next(row for row in exported["users"] if row["email"] == admin.email)
    assert user["name"] == "Ada Admin" and user["bio"] == "Runs the place" and user["twitter"] == "@ada"
    assert user["profile_image"].startswith("/content/images/")

    b = make_tenant()
    b_admin = testing.tenant_admin(b)
    b_api = testing.Api(b, user=b_admin)
    with schema_context(b.schema_name):
        User.objects.filter(pk=b_admin.pk).update(email=admin.email)  # the same person runs both
    job = upload_bytes(b_api, data, "export.zip").json()["job"]
    run(b, job["id"])
    _report(b_api, job["id"])
    site = b_api.get(SITE).json()["site"]
    assert (site["title"], site["description"], site["accentColor"]) == ("Acme", "Made here", "#123abc")
    assert site["navigation"] == [{"label": "Home", "url": "/"}, {"label": "Shop", "url": "https://shop.example/"}]
    assert site["secondaryNavigation"] == [{"label": "Legal", "url": "/legal"}]
    assert site["social"]["twitter"] == "https://x.com/acme"
    assert site["social"]["facebook"] == "https://www.facebook.com/acmeco"
    assert site["coverImage"] == {"mediaId": None, "url": "https://images.example.com/cover.jpg"}
    with schema_context(b.schema_name):
        b_logo = Media.objects.get(pk=site["logo"]["mediaId"])
        b_face = Media.objects.get(file_name="face.png")
        profile = User.objects.get(pk=b_admin.pk)
    assert (b_logo.file_name, b_logo.width, b_logo.height) == ("logo.png", 24, 12)
    assert site["logo"]["url"].endswith(b_logo.storage_key)
    assert (profile.display_name, profile.bio, profile.location, profile.twitter) == (
        "Ada Admin", "Runs the place", "Porto", "https://x.com/ada")
    assert profile.profile_image.endswith(b_face.storage_key)
