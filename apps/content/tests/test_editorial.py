"""Autosaved copies (one per post and user, never changing the post, cleared by a save), edit
conflicts between two real clients, and preview links (signed, expiring, revocable) read through
the public API on both of its paths."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.content.models import PostAutosave, PreviewLink
from apps.content.tests.conftest import make_category, make_media, post_payload
from apps.core.testing import Api, create_user, parallel, tenant_admin, token_for

FIELDS = {"title": "Typed but not saved", "content": "<p>Half a sentence</p>", "excerpt": "e"}


@pytest.fixture
def site(tenant):
    """The company's website: its content key."""
    return Api(tenant, headers={"x-api-key": tenant.api_key})


@pytest.fixture
def draft(tenant, api):
    category, media = make_category(tenant), make_media(tenant)
    created = api.post("/api/posts/upload", post_payload(category, media, postTitle="Saved title"))
    assert created.status_code == 201, created.json()
    return created.json()["post"]


# --- autosave ------------------------------------------------------------------------------------
def test_an_autosave_keeps_the_copy_without_changing_the_post(tenant, api, draft):
    path = f"/api/posts/{draft['id']}/autosave"
    assert api.get(path).json() == {"success": True, "autosave": None}
    saved = api.put(path, {"fields": FIELDS, "baseUpdatedAt": draft["updatedAt"]})
    assert saved.status_code == 200, saved.json()
    again = api.put(path, {"fields": {**FIELDS, "title": "Typed some more"}, "baseUpdatedAt": draft["updatedAt"]})
    copy = api.get(path).json()["autosave"]
    assert copy["fields"]["title"] == "Typed some more" and copy == again.json()["autosave"]
    assert copy["baseUpdatedAt"] == draft["updatedAt"]
    post = api.get(f"/api/posts/{draft['id']}").json()["post"]
    assert post["title"] == "Saved title" and post["updatedAt"] == draft["updatedAt"]
    with schema_context(tenant.schema_name):
        assert PostAutosave.objects.filter(post_id=draft["id"]).count() == 1


def test_a_date_time_with_any_iso_offset_is_kept_in_utc_or_refused(api, draft):
    path = f"/api/posts/{draft['id']}/autosave"
    # ISO 8601 allows offsets PostgreSQL does not store (past 15:59): kept as the same instant in UTC.
    saved = api.put(path, {"fields": FIELDS, "baseUpdatedAt": "2026-04-19T06:23:51+20:20"})
    assert saved.status_code == 200, saved.json()
    assert saved.json()["autosave"]["baseUpdatedAt"].startswith("2026-04-18T10:03:51")
    # An instant before year 1 in UTC is not a date the product can keep: the contract's 400.
    refused = api.put(path, {"fields": FIELDS, "baseUpdatedAt": "0001-01-01T00:00:00+05:00"})
    assert refused.status_code == 400 and refused.json()["error"] == "validation_error"


def test_each_user_sees_only_their_own_copy_and_a_save_clears_it(tenant, api, draft):
    editor = Api(tenant, user=create_user(tenant, "editor"))
    path = f"/api/posts/{draft['id']}/autosave"
    api.put(path, {"fields": FIELDS})
    assert editor.get(path).json()["autosave"] is None
    editor.put(path, {"fields": {"title": "The editor's copy"}})
    assert api.get(path).json()["autosave"]["fields"] == FIELDS
    assert api.put(f"/api/posts/{draft['id']}", {"title": "Saved for real"}).status_code == 200
    assert api.get(path).json()["autosave"] is None  # the admin's copy went with the save
    assert editor.get(path).json()["autosave"]["fields"] == {"title": "The editor's copy"}
    assert editor.delete(path).json()["message"] == "Unsaved changes discarded"
    assert editor.get(path).json()["autosave"] is None


def test_a_new_post_has_one_copy_per_user_until_it_is_created(tenant, api):
    api.put("/api/posts/new/autosave", {"fields": {"title": "Not created yet"}})
    assert api.get("/api/posts/new/autosave").json()["autosave"]["fields"] == {"title": "Not created yet"}
    category, media = make_category(tenant), make_media(tenant)
    assert api.post("/api/posts/upload", post_payload(category, media)).status_code == 201
    assert api.get("/api/posts/new/autosave").json()["autosave"] is None


def test_autosave_follows_the_rules_of_editing(tenant, draft, make_tenant):
    path = f"/api/posts/{draft['id']}/autosave"
    viewer = Api(tenant, user=create_user(tenant, "viewer"))
    assert viewer.put(path, {"fields": FIELDS}).status_code == 403
    assert viewer.put("/api/posts/new/autosave", {"fields": FIELDS}).status_code == 403
    author = Api(tenant, user=create_user(tenant, "author"))  # not their post
    assert author.get(path).status_code == 403
    assert author.put("/api/posts/new/autosave", {"fields": FIELDS}).status_code == 200
    other = make_tenant()
    assert Api(other, user=tenant_admin(other)).put(path, {"fields": FIELDS}).status_code == 404
    bad = Api(tenant, user=tenant_admin(tenant)).put(path, {"fields": "not an object"})
    assert bad.status_code == 400 and bad.json()["error"] == "validation_error"


@pytest.mark.django_db(transaction=True)
def test_parallel_autosaves_of_one_copy_leave_one_row(live_app, make_tenant):
    tenant = make_tenant()
    token = token_for(tenant, tenant_admin(tenant))
    replies = parallel([
        (lambda n=n: live_app.request("PUT", tenant, "/api/posts/new/autosave", token=token,
                                      json_body={"fields": {"title": f"Copy {n}"}}))
        for n in range(6)])
    assert [r.status_code for r in replies] == [200] * 6, live_app.log()
    with schema_context(tenant.schema_name):
        assert PostAutosave.objects.count() == 1


# --- edit conflicts with two real clients --------------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_two_clients_saving_one_copy_at_once_one_gets_the_conflict(live_app, make_tenant):
    tenant = make_tenant()
    admin, editor = tenant_admin(tenant), create_user(tenant, "editor", username="eddie")
    category, media = make_category(tenant), make_media(tenant)
    post = Api(tenant, user=admin).post("/api/posts/upload", post_payload(category, media)).json()["post"]
    tokens = {"admin": token_for(tenant, admin), "eddie": token_for(tenant, editor)}
    for who, token in tokens.items():  # each has unsaved work kept
        live_app.request("PUT", tenant, f"/api/posts/{post['id']}/autosave", token=token,
                         json_body={"fields": {"title": f"{who}'s title"}, "baseUpdatedAt": post["updatedAt"]})
    replies = parallel([
        (lambda who=who, token=token: live_app.request(
            "PUT", tenant, f"/api/posts/{post['id']}", token=token,
            json_body={"title": f"{who}'s title", "baseUpdatedAt": post["updatedAt"]}))
        for who, token in tokens.items()])
    assert sorted(r.status_code for r in replies) == [200, 409], live_app.log()
    winner = next(r for r in replies if r.status_code == 200).json()["post"]
    refused = next(r for r in replies if r.status_code == 409)
    loser = "eddie" if winner["title"] == "admin's title" else "admin"
    assert refused.json()["code"] == "edit_conflict"
    assert "changed by" in refused.json()["message"]
    current = live_app.request("GET", tenant, f"/api/posts/{post['id']}", token=tokens["admin"]).json()["post"]
    assert current["title"] == winner["title"]
    # The refused client's unsaved copy is still there to compare against.
    kept = live_app.request("GET", tenant, f"/api/posts/{post['id']}/autosave", token=tokens[loser]).json()
    assert kept["autosave"]["fields"]["title"] == f"{loser}'s title"


# --- preview links -------------------------------------------------------------------------------
def _create_link(api, post_id):
    created = api.post(f"/api/posts/{post_id}/preview-links")
    assert created.status_code == 201, created.json()
    return created.json()["link"]


def test_a_preview_link_reads_the_draft_through_the_public_api(tenant, api, draft, site):
    link = _create_link(api, draft["id"])
    assert link["status"] == "active" and link["url"].endswith(f"/api/v1/preview/{link['token']}")
    expires = timezone.datetime.fromisoformat(link["expiresAt"].replace("Z", "+00:00"))
    assert timedelta(days=6, hours=23) < expires - timezone.now() <= timedelta(days=7)
    read = site.get(f"/api/v1/preview/{link['token']}")
    assert read.status_code == 200, read.json()
    slug_shape = Api(tenant, headers={"x-api-key": tenant.preview_key}).get(f"/api/v1/posts/slug/{draft['slug']}")
    assert read.json() == slug_shape.json()  # the same shape as posts/slug/{slug}
    assert read.json()["data"]["post"]["title"] == "Saved title"
    assert read.headers["Cache-Control"] == "private, no-store"
    # The draft stays hidden from the content key everywhere else.
    assert site.get(f"/api/v1/posts/slug/{draft['slug']}").status_code == 404
    listed = api.get(f"/api/posts/{draft['id']}/preview-links").json()["links"]
    assert [item["id"] for item in listed] == [link["id"]] and listed[0]["token"] == link["token"]


def test_revoked_expired_forged_and_other_company_tokens_are_404(tenant, api, draft, site, make_tenant):
    link = _create_link(api, draft["id"])
    path = f"/api/v1/preview/{link['token']}"
    assert site.get(path).status_code == 200
    revoked = api.delete(f"/api/posts/{draft['id']}/preview-links/{link['id']}")
    assert revoked.status_code == 200 and revoked.json()["link"]["status"] == "revoked"
    assert revoked.json()["link"]["token"] is None
    gone = site.get(path)
    assert gone.status_code == 404 and gone.json()["message"] == "Preview not found"  # at once: never cached

    second = _create_link(api, draft["id"])
    with schema_context(tenant.schema_name):
        PreviewLink.objects.filter(pk=second["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert site.get(f"/api/v1/preview/{second['token']}").status_code == 404
    assert api.get(f"/api/posts/{draft['id']}/preview-links").json()["links"][0]["status"] == "expired"

    third = _create_link(api, draft["id"])
    assert site.get(f"/api/v1/preview/{third['token'][:-2]}xx").status_code == 404  # forged signature
    other = make_tenant()
    assert Api(other, headers={"x-api-key": other.api_key}).get(f"/api/v1/preview/{third['token']}").status_code == 404
    assert Api(tenant).get(f"/api/v1/preview/{third['token']}").status_code == 401  # no key


def test_preview_links_are_for_drafts_by_whoever_may_edit_them(tenant, api, draft, settings):
    settings.PREVIEW_LINK_DAYS = 2
    link = _create_link(api, draft["id"])
    expires = timezone.datetime.fromisoformat(link["expiresAt"].replace("Z", "+00:00"))
    assert expires - timezone.now() <= timedelta(days=2)
    author_user = create_user(tenant, "author")
    author = Api(tenant, user=author_user)
    assert author.post(f"/api/posts/{draft['id']}/preview-links").status_code == 403  # not their post
    assert Api(tenant, user=create_user(tenant, "viewer")).get(
        f"/api/posts/{draft['id']}/preview-links").status_code == 403
    category, media = make_category(tenant), make_media(tenant)
    own = author.post("/api/posts/upload", post_payload(category, media)).json()["post"]
    assert author.post(f"/api/posts/{own['id']}/preview-links").status_code == 201
    assert api.put(f"/api/posts/{draft['id']}", {"status": "published"}).status_code == 200
    refused = api.post(f"/api/posts/{draft['id']}/preview-links")
    assert refused.status_code == 409 and refused.json()["code"] == "preview_not_draft"
    assert api.delete(f"/api/posts/{draft['id']}/preview-links/not-an-id").status_code == 404
