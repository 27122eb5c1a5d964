"""Author profiles (docs/accounts.md#author-profile): a person edits their own, an admin anyone's,
nobody else another's; every value follows its rule; readers see the profile on the public API's
posts (added to `author`, its `id` and `username` kept) and on Ghost's authors and posts, at once
after a change."""
from __future__ import annotations

import pytest
from django_tenants.utils import schema_context

from apps.accounts.models import User
from apps.content.tests.factories import make_post
from apps.core import testing
from apps.media.services import media_create_from_bytes
from apps.portability.tests.imageserver import png

GHOST = "/ghost/api/content/"
PROFILE = {"displayName": "Sam Writer", "bio": "Writes about tools.", "location": "Lisbon",
           "website": "https://sam.example", "facebook": "samwrites", "twitter": "@samwrites",
           "coverImage": "https://images.example.com/sam-cover.jpg"}


@pytest.fixture
def author(tenant):
    return testing.create_user(tenant, "author", username="sam")


def _as(tenant, user):
    return testing.Api(tenant, user=user)


@pytest.mark.django_db
def test_a_person_edits_their_own_profile(tenant, author):
    me = _as(tenant, author)
    with schema_context(tenant.schema_name):
        photo = media_create_from_bytes(data=png(20, 20), file_name="sam.png", alt_text="Sam", uploaded_by=author)
    empty = me.get(f"/api/users/{author.pk}/profile").json()["profile"]
    assert empty == {"name": "sam", "displayName": "", "bio": "", "profileImage": "", "coverImage": "", "website": "",
                     "location": "", "facebook": "", "twitter": ""}
    saved = me.put(f"/api/users/{author.pk}/profile", {**PROFILE, "profileImage": str(photo.pk)})
    assert saved.status_code == 200, saved.content
    profile = saved.json()["profile"]
    assert saved.json()["message"] == "Profile saved"
    assert profile["name"] == "Sam Writer" and profile["bio"] == "Writes about tools."
    # a media item of the library is stored as its address
    assert profile["profileImage"].startswith("http") and profile["profileImage"].endswith(photo.storage_key)
    assert profile["facebook"] == "https://www.facebook.com/samwrites"
    assert profile["twitter"] == "https://x.com/samwrites"
    # a field left out is kept, "" clears one; the username is not touched
    me.put(f"/api/users/{author.pk}/profile", {"location": ""})
    again = me.get(f"/api/users/{author.pk}/profile").json()["profile"]
    assert again["location"] == "" and again["bio"] == "Writes about tools."
    with schema_context(tenant.schema_name):
        assert User.objects.get(pk=author.pk).username == "sam"


@pytest.mark.django_db
def test_an_admin_edits_anyones_profile_and_nobody_else_does(tenant, author, api, role_api):
    assert api.put(f"/api/users/{author.pk}/profile", {"bio": "Set by an admin"}).status_code == 200
    assert api.get(f"/api/users/{author.pk}/profile").json()["profile"]["bio"] == "Set by an admin"
    for role in ("author", "editor", "viewer"):
        other = role_api(role)
        refused = other.put(f"/api/users/{author.pk}/profile", {"bio": "Not yours"})
        assert refused.status_code == 403, role
        assert refused.json()["message"] == "You can only edit your own profile"
        assert other.get(f"/api/users/{author.pk}/profile").status_code == 403
    assert api.get(f"/api/users/{author.pk}/profile").json()["profile"]["bio"] == "Set by an admin"


@pytest.mark.django_db
def test_another_companys_user_is_not_found(tenant, other_tenant, author):
    theirs = testing.Api(other_tenant, user=testing.tenant_admin(other_tenant))
    assert theirs.get(f"/api/users/{author.pk}/profile").status_code == 404
    assert theirs.put(f"/api/users/{author.pk}/profile", {"bio": "x"}).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("body, field", [
    ({"website": "javascript:alert(1)"}, "website"),
    ({"profileImage": "javascript:alert(1)"}, "profileImage"),
    ({"twitter": "https://evil.example/sam"}, "twitter"),
    ({"facebook": "javascript:alert(1)"}, "facebook"),
    ({"bio": "b" * 251}, "bio"),
    ({"displayName": "n" * 192}, "displayName"),
    ({"coverImage": "00000000-0000-4000-8000-000000000000"}, "coverImage"),  # no such media item
])
def test_values_that_break_a_rule_are_refused(tenant, author, body, field):
    refused = _as(tenant, author).put(f"/api/users/{author.pk}/profile", body)
    assert refused.status_code == 400, refused.content
    assert [error["field"] for error in refused.json()["errors"]] == [field]


@pytest.mark.django_db
def test_readers_see_the_profile_on_posts_and_ghosts_authors(tenant, author, django_capture_on_commit_callbacks):
    make_post(tenant, "By Sam", slug="by-sam", author=author, status="published")
    site = testing.Api(tenant, headers={"x-api-key": tenant.api_key})
    before = site.get("/api/v1/posts/slug/by-sam").json()["data"]["post"]["author"]
    assert before == {"id": str(author.pk), "username": "sam", "name": "sam", "bio": "", "profileImage": None,
                      "coverImage": None, "website": "", "location": "", "facebook": "", "twitter": ""}
    with django_capture_on_commit_callbacks(execute=True):
        assert _as(tenant, author).put(f"/api/users/{author.pk}/profile", {
            **PROFILE, "profileImage": "https://images.example.com/sam.jpg"}).status_code == 200
    post = site.get("/api/v1/posts/slug/by-sam").json()["data"]["post"]["author"]
    assert post["id"] == str(author.pk) and post["username"] == "sam" and post["name"] == "Sam Writer"
    assert post["bio"] == "Writes about tools." and post["profileImage"] == "https://images.example.com/sam.jpg"
    listed = site.get("/api/v1/posts").json()["data"]["posts"][0]["author"]
    assert listed == post

    ghost = testing.Api(tenant)
    key = {"key": tenant.ghost_content_key}
    authors = ghost.get(GHOST + "authors/", key).json()["authors"]
    assert [a["slug"] for a in authors] == ["sam"]
    one = ghost.get(GHOST + "authors/slug/sam/", key).json()["authors"][0]
    assert one["name"] == "Sam Writer" and one["bio"] == "Writes about tools."
    assert one["profile_image"] == "https://images.example.com/sam.jpg"
    assert one["cover_image"] == "https://images.example.com/sam-cover.jpg"
    assert one["website"] == "https://sam.example" and one["location"] == "Lisbon"
    assert one["facebook"] == "samwrites" and one["twitter"] == "@samwrites"
    assert one["url"].endswith("/author/sam/")
    posts = ghost.get(GHOST + "posts/", {**key, "include": "authors"}).json()["posts"]
    assert posts[0]["primary_author"] == posts[0]["authors"][0] == one
