"""Site settings (docs/company-settings.md#site-settings): admins change them on the dashboard,
everyone signed in reads them; every value follows its rule (a color, links, social accounts,
images of the company's own library); the public API and Ghost's settings serve them, cached like
every public read and rebuilt after a change; a company's settings are never another's."""
from __future__ import annotations

import pytest
from django_tenants.utils import schema_context

from apps.audit.models import AuditEntry
from apps.core import testing
from apps.media.services import media_create_from_bytes
from apps.portability.tests.imageserver import png

GHOST = "/ghost/api/content/"
EVERYTHING = {
    "title": "Acme Journal", "description": "Notes from the workshop", "metaTitle": "Acme Journal: notes",
    "metaDescription": "What we make and how", "accentColor": "#FF6600",
    "navigation": [{"label": "Home", "url": "/"}, {"label": "About", "url": "https://acme.example/about"}],
    "secondaryNavigation": [{"label": "RSS", "url": "/rss/"}],
    "social": {"facebook": "acmeworks", "twitter": "@acme", "mastodon": "@acme@mastodon.social",
               "instagram": "https://www.instagram.com/acme"},
    "coverImage": "https://images.example.com/cover.jpg",
    "websiteUrl": "https://acme.example", "postUrlTemplate": "https://acme.example/blog/{slug}",
}


def site(tenant):
    return testing.Api(tenant, headers={"x-api-key": tenant.api_key})


def _logo(tenant):
    with schema_context(tenant.schema_name):
        return media_create_from_bytes(data=png(16, 16), file_name="logo.png", alt_text="Acme",
                                       uploaded_by=testing.tenant_admin(tenant))


@pytest.mark.django_db
def test_an_admin_sets_the_site_settings_and_everyone_reads_them(tenant, api, role_api):
    logo = _logo(tenant)
    empty = api.get("/api/client/site").json()["site"]
    assert empty["title"] == "" and empty["logo"] is None and empty["navigation"] == []
    assert empty["social"]["twitter"] == "" and empty["language"] == "en" and empty["timeZone"] == "UTC"

    saved = api.put("/api/client/site", {**EVERYTHING, "logo": str(logo.pk)})
    assert saved.status_code == 200, saved.content
    got = saved.json()["site"]
    assert got["title"] == "Acme Journal" and got["accentColor"] == "#ff6600"
    assert got["logo"]["mediaId"] == str(logo.pk) and got["logo"]["url"].endswith(logo.storage_key)
    assert got["logo"]["url"].startswith("http")
    assert got["coverImage"] == {"mediaId": None, "url": "https://images.example.com/cover.jpg"}
    assert got["social"]["facebook"] == "https://www.facebook.com/acmeworks"
    assert got["social"]["twitter"] == "https://x.com/acme"
    assert got["social"]["mastodon"] == "https://mastodon.social/@acme"
    assert got["navigation"][1] == {"label": "About", "url": "https://acme.example/about"}
    # the website and post URL template are the company's, also shown by client/info
    company = api.get("/api/client/info").json()["data"]["company"]
    assert company["websiteUrl"] == "https://acme.example"
    assert company["postUrlTemplate"] == "https://acme.example/blog/{slug}"

    # a field left out is kept; a social network given alone leaves the others; "" clears
    api.put("/api/client/site", {"description": "", "social": {"facebook": ""}})
    again = role_api("viewer").get("/api/client/site").json()["site"]
    assert again["title"] == "Acme Journal" and again["description"] == ""
    assert again["social"]["facebook"] == "" and again["social"]["twitter"] == "https://x.com/acme"

    with schema_context(tenant.schema_name):
        entry = AuditEntry.objects.filter(action="settings.updated").order_by("-created_at").first()
    assert entry is not None and entry.summary.startswith("site: ") and "description" in entry.summary


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["editor", "author", "viewer"])
def test_only_admins_change_them(tenant, role_api, role):
    caller = role_api(role)
    assert caller.get("/api/client/site").status_code == 200
    refused = caller.put("/api/client/site", {"title": "Mine now"})
    assert refused.status_code == 403 and refused.json()["error"] == "forbidden"
    assert caller.get("/api/client/site").json()["site"]["title"] == ""


BAD = [
    ({"accentColor": "orange"}, "accentColor", "Accent color must be a hex color such as #ff6600"),
    ({"accentColor": "#ff660"}, "accentColor", "Accent color must be a hex color such as #ff6600"),
    ({"navigation": [{"label": "Hi", "url": "javascript:alert(1)"}]}, "navigation",
     "Navigation link 1: the url must start with http://, https:// or /"),
    ({"navigation": [{"label": "Away", "url": "//evil.example/"}]}, "navigation",
     "Navigation link 1: the url must start with http://, https:// or /"),
    ({"secondaryNavigation": [{"label": "Hi", "url": "/ok"}, {"label": "", "url": "/"}]}, "secondaryNavigation",
     "Secondary navigation link 2: a label is required"),
    ({"navigation": [{"label": "x" * 101, "url": "/"}]}, "navigation",
     "Navigation link 1: the label must be at most 100 characters"),
    ({"navigation": [{"label": f"L{n}", "url": f"/{n}"} for n in range(51)]}, "navigation",
     "Navigation can have at most 50 links"),
    ({"navigation": "Home"}, "navigation", "Navigation must be a list of links, each with a label and a url"),
    ({"social": {"twitter": "javascript:alert(1)"}}, "social",
     "X (Twitter) must be a X (Twitter) handle or the address of a X (Twitter) profile"),
    ({"social": {"facebook": "https://evil.example/acme"}}, "social",
     "Facebook must be a Facebook handle or the address of a Facebook profile"),
    ({"social": {"myspace": "acme"}}, "social", None),
    ({"logo": "javascript:alert(1)"}, "logo",
     "Logo must be an image of the media library or an address starting with http:// or https://"),
    ({"title": "t" * 201}, "title", "Site title must be at most 200 characters"),
    ({"websiteUrl": "acme.example"}, "websiteUrl", "Website must be a web address starting with http:// or https://"),
]


@pytest.mark.django_db
@pytest.mark.parametrize("body, field, message", BAD)
def test_values_that_break_a_rule_are_refused(api, body, field, message):
    refused = api.put("/api/client/site", body)
    assert refused.status_code == 400, refused.content
    reply = refused.json()
    assert reply["error"] == "validation_error"
    assert [error["field"] for error in reply["errors"]] == [field]
    if message:
        assert reply["errors"][0]["message"] == message
    assert api.get("/api/client/site").json()["site"]["navigation"] == []


@pytest.mark.django_db
def test_an_image_of_another_companys_library_is_refused(tenant, other_tenant, api):
    theirs = _logo(other_tenant)
    refused = api.put("/api/client/site", {"logo": str(theirs.pk)})
    assert refused.status_code == 400
    assert refused.json()["errors"] == [{"field": "logo", "message": "Logo: no such image in the media library"}]


@pytest.mark.django_db
def test_the_public_api_serves_them_and_a_change_is_served_at_once(tenant, api, django_capture_on_commit_callbacks):
    logo = _logo(tenant)
    first = site(tenant).get("/api/v1/settings")
    assert first.status_code == 200 and first["ETag"]
    settings = first.json()["data"]["settings"]
    assert settings["title"] == tenant.name and settings["logo"] is None and settings["accentColor"] is None
    assert settings["social"]["twitter"] is None and settings["language"] == "en" and settings["languages"] == ["en"]
    assert site(tenant).get("/api/v1/settings", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304

    with django_capture_on_commit_callbacks(execute=True):
        api.put("/api/client/site", {**EVERYTHING, "logo": str(logo.pk)})
    changed = site(tenant).get("/api/v1/settings", HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200
    body = changed.json()
    assert body["success"] is True and body["message"] == "Settings retrieved successfully"
    settings = body["data"]["settings"]
    assert list(settings) == ["title", "description", "logo", "icon", "coverImage", "accentColor", "language",
                              "languages", "timeZone", "url", "postUrlTemplate", "navigation",
                              "secondaryNavigation", "social", "metaTitle", "metaDescription"]
    assert settings["title"] == "Acme Journal" and settings["accentColor"] == "#ff6600"
    assert settings["logo"].startswith("http") and settings["logo"].endswith(logo.storage_key)
    assert settings["icon"] is None and settings["coverImage"] == "https://images.example.com/cover.jpg"
    assert settings["url"] == "https://acme.example"
    assert settings["navigation"] == EVERYTHING["navigation"]
    assert settings["social"]["twitter"] == "https://x.com/acme" and settings["social"]["youtube"] is None

    # a deleted logo is served as none
    with django_capture_on_commit_callbacks(execute=True):
        assert api.delete(f"/api/media/{logo.pk}").status_code == 200
    assert site(tenant).get("/api/v1/settings").json()["data"]["settings"]["logo"] is None


@pytest.mark.django_db
def test_ghost_settings_are_the_site_settings_in_ghosts_names(tenant, api):
    api.put("/api/client/site", EVERYTHING)
    reply = testing.Api(tenant).get(GHOST + "settings/", {"key": tenant.ghost_content_key})
    assert reply.status_code == 200
    settings = reply.json()["settings"]
    assert settings["title"] == "Acme Journal" and settings["description"] == "Notes from the workshop"
    assert settings["accent_color"] == "#ff6600" and settings["cover_image"] == "https://images.example.com/cover.jpg"
    assert settings["logo"] is None and settings["icon"] is None
    assert settings["navigation"] == EVERYTHING["navigation"]
    assert settings["secondary_navigation"] == [{"label": "RSS", "url": "/rss/"}]
    assert settings["facebook"] == "acmeworks" and settings["twitter"] == "@acme"
    assert settings["locale"] == "en" and settings["timezone"] == "UTC"
    assert settings["meta_title"] == "Acme Journal: notes" and settings["url"] == "https://acme.example/"


@pytest.mark.django_db
def test_a_companys_settings_never_come_from_another_host_or_key(tenant, other_tenant, api):
    api.put("/api/client/site", {"title": "Only for A", "navigation": [{"label": "A", "url": "/a"}]})
    # A's key on B's host, B's key on A's host: 401
    assert testing.Api(other_tenant, headers={"x-api-key": tenant.api_key}).get("/api/v1/settings").status_code == 401
    assert testing.Api(tenant, headers={"x-api-key": other_tenant.api_key}).get("/api/v1/settings").status_code == 401
    theirs = site(other_tenant).get("/api/v1/settings").json()["data"]["settings"]
    assert theirs["title"] == other_tenant.name and theirs["navigation"] == []
    ghost = testing.Api(other_tenant).get(GHOST + "settings/", {"key": other_tenant.ghost_content_key}).json()
    assert ghost["settings"]["title"] == other_tenant.name and ghost["settings"]["navigation"] == []
    # B's admin reads B's
    other_admin = testing.Api(other_tenant, user=testing.tenant_admin(other_tenant))
    assert other_admin.get("/api/client/site").json()["site"]["title"] == ""
    assert site(tenant).get("/api/v1/settings").json()["data"]["settings"]["title"] == "Only for A"


@pytest.mark.django_db
def test_a_backup_restores_the_site_settings(tenant, api, tmp_path, settings):
    from lifecycle.backup import tenant_backup, tenant_restore

    settings.MEDIA_ROOT = str(tmp_path / "media")
    logo = _logo(tenant)
    api.put("/api/client/site", {**EVERYTHING, "logo": str(logo.pk)})
    path = tmp_path / "backup.tar.gz"
    tenant_backup(client=tenant, path=path)
    api.put("/api/client/site", {"title": "Changed after the backup", "navigation": []})

    restored = tenant_restore(path=path, subdomain="restored-site")
    copy = testing.Api(restored, user=testing.tenant_admin(restored)).get("/api/client/site").json()["site"]
    assert copy["title"] == "Acme Journal" and copy["navigation"] == EVERYTHING["navigation"]
    assert copy["logo"]["mediaId"] == str(logo.pk) and copy["logo"]["url"].startswith("http")
    tenant_restore(path=path, replace=True)  # over the same company: the backed-up state
    assert api.get("/api/client/site").json()["site"]["title"] == "Acme Journal"
