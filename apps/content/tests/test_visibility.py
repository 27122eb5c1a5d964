"""Members-only posts on the content side (docs/content.md#members-only-posts): `visibility` is a
column of posts and pages (public or members, nothing else: its rule in apps.content.rules, a
CHECK constraint under it), set through the dashboard API by whoever may edit the post, read back
with the whole body by the staff, kept and restored by revisions and copied to a translation."""
from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django_tenants.utils import schema_context

from apps.content.models import Post
from apps.content.rules import (VISIBILITY_INVALID, body_for_reader, body_visible, post_values,
                                post_values_repaired)
from apps.content.tests.conftest import make_category, make_media, post_payload
from apps.content.tests.factories import make_post
from apps.core.errors import ValidationFailed
from apps.core.testing import Api, create_user

BODY = "<p>Only for <strong>members</strong></p>"


def _create(api, tenant, path: str = "/api/posts/upload", **overrides) -> dict:
    response = api.post(path, post_payload(make_category(tenant), make_media(tenant), postContent=BODY, **overrides))
    assert response.status_code == 201, response.json()
    return response.json()["post"]


def test_a_post_is_public_unless_made_members_only(tenant, api):
    plain = _create(api, tenant)
    assert plain["visibility"] == "public"
    assert list(plain)[list(plain).index("featured") + 1] == "visibility"  # the summary's last field
    locked = _create(api, tenant, visibility="members", postTitle="Members one")
    assert locked["visibility"] == "members" and locked["content"] == BODY  # the staff read every body
    assert api.get(f"/api/posts/{locked['id']}").json()["post"]["content"] == BODY
    listed = {post["id"]: post["visibility"] for post in api.get("/api/posts").json()["posts"]}
    assert listed == {plain["id"]: "public", locked["id"]: "members"}
    with schema_context(tenant.schema_name):
        assert Post.objects.get(pk=locked["id"]).visibility == "members"
    assert _create(api, tenant, visibility=None, postTitle="Null is public")["visibility"] == "public"


def test_an_update_changes_it_and_null_or_leaving_it_out_keeps_it(tenant, api):
    post = _create(api, tenant, visibility="members")
    kept = api.put(f"/api/posts/{post['id']}", {"title": "Renamed", "visibility": None})
    assert kept.status_code == 200 and kept.json()["post"]["visibility"] == "members"
    assert api.put(f"/api/posts/{post['id']}", {"title": "Again"}).json()["post"]["visibility"] == "members"
    opened = api.put(f"/api/posts/{post['id']}", {"visibility": "public"})
    assert opened.status_code == 200 and opened.json()["post"]["visibility"] == "public"
    assert api.put(f"/api/posts/{post['id']}", {"visibility": " Members "}).json()["post"]["visibility"] == "members"


@pytest.mark.parametrize("value", ["paid", "tiers", "", "private", 1, True, ["members"]])
def test_only_public_or_members_is_accepted(tenant, api, value):
    created = api.post("/api/posts/upload", post_payload(make_category(tenant), make_media(tenant), visibility=value))
    assert created.status_code == 400, created.json()
    assert created.json()["message"] == VISIBILITY_INVALID
    post = _create(api, tenant)
    updated = api.put(f"/api/posts/{post['id']}", {"visibility": value})
    assert updated.status_code == 400 and updated.json()["message"] == VISIBILITY_INVALID


def test_the_rule_is_the_services_too_and_a_repair_never_makes_a_post_public():
    assert post_values({"visibility": "members"}) == {"visibility": "members"}
    with pytest.raises(ValidationFailed):
        post_values({"visibility": "paid"})
    values, repairs = post_values_repaired({"visibility": "paid"})  # an outside file's value: never public
    assert values == {"visibility": "members"} and repairs == [("visibility", f"{VISIBILITY_INVALID}: left out")]
    assert body_for_reader("members", BODY, member=False) == "" and body_for_reader("members", BODY, member=True) == BODY
    assert body_for_reader("public", BODY, member=False) == BODY
    assert not body_visible("anything else", member=False)  # fails closed


def test_the_database_stores_no_other_value(tenant):
    post = make_post(tenant, visibility="members")
    with schema_context(tenant.schema_name):
        with pytest.raises(IntegrityError), transaction.atomic():
            Post.objects.filter(pk=post.pk).update(visibility="paid")
        assert Post.objects.filter(visibility="public").count() == 0


def test_a_revision_keeps_it_and_a_restore_brings_it_back(tenant, api):
    post = _create(api, tenant, visibility="members")
    assert api.put(f"/api/posts/{post['id']}", {"visibility": "public"}).status_code == 200
    listed = api.get(f"/api/posts/{post['id']}/revisions").json()["revisions"]
    first = listed[-1]
    snapshot = api.get(f"/api/posts/{post['id']}/revisions/{first['id']}").json()["revision"]["snapshot"]
    assert snapshot["visibility"] == "members"
    restored = api.post(f"/api/posts/{post['id']}/revisions/{first['id']}/restore")
    assert restored.status_code == 200 and restored.json()["post"]["visibility"] == "members"


def test_a_translation_of_a_members_only_post_is_members_only(tenant, api):
    assert api.put("/api/client/languages", {"languages": ["en", "fr"], "defaultLanguage": "en"}).status_code == 200
    post = _create(api, tenant, visibility="members")
    made = api.post(f"/api/posts/{post['id']}/translations", {"language": "fr"})
    assert made.status_code == 201, made.json()
    assert made.json()["post"]["visibility"] == "members" and made.json()["post"]["status"] == "draft"


def test_a_page_is_members_only_as_a_post(tenant, api):
    page = _create(api, tenant, "/api/pages", categories=[], visibility="members")
    assert page["visibility"] == "members"
    changed = api.put(f"/api/pages/{page['id']}", {"visibility": "public"})
    assert changed.status_code == 200 and changed.json()["post"]["visibility"] == "public"


def test_whoever_may_edit_the_post_may_change_who_reads_it(tenant, api):
    author = create_user(tenant, "author")
    as_author = Api(tenant, user=author)
    own = _create(as_author, tenant, visibility="members")  # an author's own draft
    assert as_author.put(f"/api/posts/{own['id']}", {"visibility": "public"}).json()["post"]["visibility"] == "public"
    others = _create(api, tenant)
    assert as_author.put(f"/api/posts/{others['id']}", {"visibility": "members"}).status_code == 403
    assert api.put(f"/api/posts/{own['id']}", {"status": "published"}).status_code == 200
    assert as_author.put(f"/api/posts/{own['id']}", {"visibility": "members"}).status_code == 403  # published
    editor = Api(tenant, user=create_user(tenant, "editor"))
    assert editor.put(f"/api/posts/{own['id']}", {"visibility": "members"}).json()["post"]["visibility"] == "members"
    assert Api(tenant, user=create_user(tenant, "viewer")).put(
        f"/api/posts/{own['id']}", {"visibility": "public"}).status_code == 403
