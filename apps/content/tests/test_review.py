"""The review workflow: a writer marks a draft ready for review, editors see it under
review=waiting and publish it or send it back with a note; the public API never shows it."""
from __future__ import annotations

import pytest
from django_tenants.utils import schema_context

from apps.content.models import Post
from apps.content.tests.factories import make_category, make_media, make_post
from apps.core import testing


@pytest.fixture
def author(tenant):
    return testing.create_user(tenant, "author")


@pytest.fixture
def draft(tenant, author):
    return make_post(tenant, "Ready soon", author=author, categories=[make_category(tenant)],
                     featured_image=make_media(tenant))


def _waiting(api) -> list[str]:
    response = api.get("/api/posts", {"review": "waiting"})
    assert response.status_code == 200, response.content
    return [p["id"] for p in response.json()["posts"]]


def test_author_requests_review_and_editor_sees_it_waiting(tenant, author, draft, role_api):
    mine = testing.Api(tenant, user=author)
    response = mine.post(f"/api/posts/{draft.pk}/review/request")
    assert response.status_code == 200, response.content
    post = response.json()["post"]
    assert post["reviewRequestedAt"] and post["reviewNote"] == "" and post["status"] == "draft"
    # asked again: still waiting since the first time
    again = mine.post(f"/api/posts/{draft.pk}/review/request").json()["post"]
    assert again["reviewRequestedAt"] == post["reviewRequestedAt"]

    editor = role_api("editor")
    other = make_post(tenant, "Not asked")
    assert _waiting(editor) == [str(draft.pk)]
    listed = editor.get("/api/posts").json()["posts"]
    assert {p["id"]: p["reviewRequestedAt"] is not None for p in listed} == {str(draft.pk): True, str(other.pk): False}


def test_editor_sends_back_with_a_note_and_the_writer_reads_it(tenant, author, draft, role_api):
    mine = testing.Api(tenant, user=author)
    mine.post(f"/api/posts/{draft.pk}/review/request")
    editor = role_api("editor")
    empty = editor.post(f"/api/posts/{draft.pk}/review/return", {"note": "  "})
    assert empty.status_code == 400 and empty.json()["errors"][0]["field"] == "note"
    returned = editor.post(f"/api/posts/{draft.pk}/review/return", {"note": "Add a source for the figures"})
    assert returned.status_code == 200, returned.content
    assert returned.json()["post"]["reviewRequestedAt"] is None
    assert _waiting(editor) == []
    seen = mine.get(f"/api/posts/{draft.pk}").json()["post"]
    assert seen["reviewNote"] == "Add a source for the figures" and seen["status"] == "draft"
    # sending back what is not waiting: 409
    assert editor.post(f"/api/posts/{draft.pk}/review/return", {"note": "again"}).status_code == 409
    # asking again clears the note
    assert mine.post(f"/api/posts/{draft.pk}/review/request").json()["post"]["reviewNote"] == ""


def test_publishing_a_waiting_post_ends_its_review(tenant, author, draft, role_api):
    testing.Api(tenant, user=author).post(f"/api/posts/{draft.pk}/review/request")
    editor = role_api("editor")
    response = editor.put(f"/api/posts/{draft.pk}", {"status": "published"})
    assert response.status_code == 200, response.content
    assert response.json()["post"]["reviewRequestedAt"] is None
    assert _waiting(editor) == []


def test_who_may_request_and_return(tenant, author, draft, role_api):
    viewer, other_author = role_api("viewer"), role_api("author")
    assert viewer.post(f"/api/posts/{draft.pk}/review/request").status_code == 403
    assert other_author.post(f"/api/posts/{draft.pk}/review/request").status_code == 403  # not their post
    testing.Api(tenant, user=author).post(f"/api/posts/{draft.pk}/review/request")
    for role in ("viewer", "author"):
        assert role_api(role).post(f"/api/posts/{draft.pk}/review/return", {"note": "x"}).status_code == 403
    assert testing.Api(tenant, user=author).post(f"/api/posts/{draft.pk}/review/return",
                                                 {"note": "x"}).status_code == 403
    assert role_api("admin").post(f"/api/posts/{draft.pk}/review/return", {"note": "x"}).status_code == 200


def test_only_unscheduled_drafts_can_wait_for_review(tenant, role_api):
    live = make_post(tenant, "Live", status="published")
    response = role_api("editor").post(f"/api/posts/{live.pk}/review/request")
    assert response.status_code == 409 and response.json()["error"] == "conflict"


def test_bad_filter_and_missing_posts(api, tenant):
    response = api.get("/api/posts", {"review": "soon"})
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "review"
    assert api.post("/api/posts/not-a-uuid/review/request").status_code == 404
    assert api.post("/api/posts/00000000-0000-0000-0000-000000000000/review/return", {"note": "x"}).status_code == 404


def test_another_company_cannot_touch_the_review(tenant, other_tenant, author, draft):
    testing.Api(tenant, user=author).post(f"/api/posts/{draft.pk}/review/request")
    other = testing.Api(other_tenant, user=testing.tenant_admin(other_tenant))
    assert other.post(f"/api/posts/{draft.pk}/review/request").status_code == 404
    assert other.post(f"/api/posts/{draft.pk}/review/return", {"note": "x"}).status_code == 404
    assert other.get("/api/posts", {"review": "waiting"}).json()["posts"] == []
    stolen = testing.Api(tenant, token=other.headers["Authorization"].split()[1])
    assert stolen.post(f"/api/posts/{draft.pk}/review/return", {"note": "x"}).status_code == 401
    with schema_context(tenant.schema_name):
        assert Post.objects.get(pk=draft.pk).review_requested_at is not None


def test_the_public_api_never_shows_review_state(tenant):
    post = make_post(tenant, "Public", status="published", review_note="an editor's private note")
    for key in (tenant.api_key, tenant.preview_key):
        site = testing.Api(tenant, headers={"x-api-key": key})
        for path in (f"/api/v1/posts/slug/{post.slug}", "/api/v1/posts"):
            response = site.get(path)
            assert response.status_code == 200, (path, response.content)
            body = response.content.decode()
            assert "review" not in body.lower() and "private note" not in body
