"""Revisions: every save of a post is kept (who, when, which action, every editable field), listed,
shown and restored with the rules of editing; a stale save is refused instead of overwriting."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.db import connections
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.content import services
from apps.content.models import Post, PostRevision
from apps.content.tests.conftest import make_category, make_media, make_tag, post_payload
from apps.core.testing import Api, create_user, tenant_admin


def revisions(api, post_id, **query):
    response = api.get(f"/api/posts/{post_id}/revisions", query)
    assert response.status_code == 200, response.json()
    return response.json()


@pytest.fixture
def written(tenant, api):
    """A post created as a draft by the admin, then edited."""
    category, media = make_category(tenant), make_media(tenant)
    created = api.post("/api/posts/upload", post_payload(category, media, postTitle="First title"))
    assert created.status_code == 201, created.json()
    post_id = created.json()["post"]["id"]
    assert api.put(f"/api/posts/{post_id}", {"title": "Second title", "content": "<p>Second body</p>"}).status_code == 200
    return {"id": post_id, "category": category, "media": media}


def test_every_save_is_a_revision_with_its_action(tenant, api, written, django_capture_on_commit_callbacks):
    post_id = written["id"]
    assert api.put(f"/api/posts/{post_id}", {"status": "published"}).status_code == 200
    assert api.put(f"/api/posts/{post_id}", {"status": "draft"}).status_code == 200
    later = (timezone.now() + timedelta(hours=1)).isoformat()
    assert api.put(f"/api/posts/{post_id}", {"status": "published", "scheduledPublishDate": later}).status_code == 200
    with schema_context(tenant.schema_name):
        Post.objects.filter(pk=post_id).update(scheduled_publish_date=timezone.now() - timedelta(minutes=1))
        assert len(services.publish_due_posts()) == 1
    listed = revisions(api, post_id)["revisions"]
    assert [r["action"] for r in listed] == ["scheduled_publish", "schedule", "unpublish", "publish", "update",
                                            "create"]
    assert [r["number"] for r in listed] == [6, 5, 4, 3, 2, 1]
    assert listed[0]["author"] is None  # the scheduler
    assert listed[1]["author"]["username"] == tenant_admin(tenant).username
    assert [r["published"] for r in listed] == [True, False, False, True, False, False]


def test_a_revision_keeps_every_editable_field(tenant, api, written):
    tag = make_tag(tenant)
    assert api.put(f"/api/posts/{written['id']}", {"tags": [str(tag.id)], "metaTitle": "SEO"}).status_code == 200
    newest = revisions(api, written["id"])["revisions"][0]
    detail = api.get(f"/api/posts/{written['id']}/revisions/{newest['id']}").json()["revision"]
    snapshot = detail["snapshot"]
    assert snapshot["title"] == "Second title" and snapshot["content"] == "<p>Second body</p>"
    assert snapshot["tags"] == [str(tag.id)] and snapshot["categories"] == [str(written["category"].id)]
    assert snapshot["metaTitle"] == "SEO" and snapshot["featuredImageId"] == str(written["media"].id)
    assert snapshot["status"] == "draft" and snapshot["isScheduled"] is False
    assert api.get(f"/api/posts/{written['id']}/revisions/not-an-id").status_code == 404


def test_restoring_brings_the_text_back_as_a_new_revision(tenant, api, written):
    first = revisions(api, written["id"])["revisions"][-1]
    restored = api.post(f"/api/posts/{written['id']}/revisions/{first['id']}/restore")
    assert restored.status_code == 200, restored.json()
    assert restored.json()["message"] == "Revision restored"
    assert restored.json()["post"]["title"] == "First title"
    assert restored.json()["post"]["content"] == "<p>Some <strong>content</strong></p>"
    listed = revisions(api, written["id"])["revisions"]
    assert listed[0]["action"] == "restore" and listed[0]["number"] == 3


def test_an_author_restores_only_into_a_draft(tenant, api):
    author = create_user(tenant, "author")
    as_author = Api(tenant, user=author)
    category, media = make_category(tenant), make_media(tenant)
    post_id = as_author.post("/api/posts/upload", post_payload(category, media)).json()["post"]["id"]
    assert api.put(f"/api/posts/{post_id}", {"status": "published", "title": "Edited by the editor"}).status_code == 200
    assert api.put(f"/api/posts/{post_id}", {"status": "draft"}).status_code == 200
    published = next(r for r in revisions(as_author, post_id)["revisions"] if r["published"])
    restored = as_author.post(f"/api/posts/{post_id}/revisions/{published['id']}/restore")
    assert restored.status_code == 200, restored.json()
    assert restored.json()["post"]["status"] == "draft"
    assert restored.json()["post"]["title"] == "Edited by the editor"


def test_history_is_for_whoever_may_edit_the_post(tenant, written, make_tenant):
    post_id = written["id"]
    for role in ("viewer", "author"):  # an author: not their post
        response = Api(tenant, user=create_user(tenant, role)).get(f"/api/posts/{post_id}/revisions")
        assert response.status_code == 403
    editor = Api(tenant, user=create_user(tenant, "editor"))
    assert editor.get(f"/api/posts/{post_id}/revisions").status_code == 200
    other = make_tenant()
    response = Api(other, user=tenant_admin(other)).get(f"/api/posts/{post_id}/revisions")
    assert response.status_code == 404


def test_the_list_is_paged_and_its_query_count_does_not_grow(tenant, api, written):
    from django.db import connection

    for n in range(8):
        api.put(f"/api/posts/{written['id']}", {"title": f"Title {n}"})
    page = revisions(api, written["id"], page=2, limit=4)
    assert [r["number"] for r in page["revisions"]] == [6, 5, 4, 3]
    assert page["pagination"] == {"total": 10, "totalPages": 3, "currentPage": 2, "limit": 4}
    with CaptureQueriesContext(connection) as few:
        revisions(api, written["id"], limit=2)
    with CaptureQueriesContext(connection) as many:
        revisions(api, written["id"], limit=10)
    assert len(many) == len(few)


def test_pruning_keeps_the_newest_and_every_published_revision(tenant, api, written):
    post_id = written["id"]
    api.put(f"/api/posts/{post_id}", {"status": "published"})  # 3: published
    for n in range(4):
        api.put(f"/api/posts/{post_id}", {"title": f"Live title {n}", "status": "draft"})  # 4..7
    with schema_context(tenant.schema_name):
        removed = services.revisions_prune(keep=2)
        kept = list(PostRevision.objects.filter(post_id=post_id).order_by("number").values_list("number", flat=True))
    assert kept == [3, 6, 7] and removed == 4


@pytest.mark.django_db(transaction=True)
def test_two_editors_saving_from_the_same_copy_one_is_refused_with_who_and_when(make_tenant):
    tenant = make_tenant()
    admin, editor = tenant_admin(tenant), create_user(tenant, "editor", username="eddie")
    category, media = make_category(tenant), make_media(tenant)
    post = Api(tenant, user=admin).post("/api/posts/upload", post_payload(category, media)).json()["post"]
    barrier = threading.Barrier(2)

    def save(user, title):
        try:
            api = Api(tenant, user=user)
            barrier.wait()
            return api.put(f"/api/posts/{post['id']}", {"title": title, "baseUpdatedAt": post["updatedAt"]})
        finally:
            connections.close_all()

    with ThreadPoolExecutor(2) as pool:
        replies = list(pool.map(lambda args: save(*args), [(admin, "Admin's title"), (editor, "Eddie's title")]))
    statuses = sorted(r.status_code for r in replies)
    assert statuses == [200, 409], [r.json() for r in replies]
    winner = next(r for r in replies if r.status_code == 200).json()["post"]
    refused = next(r for r in replies if r.status_code == 409).json()
    assert refused["error"] == "conflict" and refused["code"] == "edit_conflict"
    who = "eddie" if winner["title"] == "Eddie's title" else admin.username
    assert f"changed by {who} at " in refused["message"]
    current = Api(tenant, user=admin).get(f"/api/posts/{post['id']}").json()["post"]
    assert current["title"] == winner["title"]  # nothing was overwritten
    # Saved from the current copy, it goes through.
    again = Api(tenant, user=admin).put(f"/api/posts/{post['id']}", {"title": "Merged", "baseUpdatedAt":
                                                                       current["updatedAt"]})
    assert again.status_code == 200


def test_a_company_backup_keeps_the_revisions(tenant, written, tmp_path, settings):
    from lifecycle.backup import tenant_backup, tenant_restore

    settings.MEDIA_ROOT = str(tmp_path / "media")
    path = tmp_path / "backup.tar.gz"
    tenant_backup(client=tenant, path=path)
    copy = tenant_restore(path=path, subdomain=f"{tenant.subdomain}-copy")
    with schema_context(copy.schema_name):
        assert list(PostRevision.objects.order_by("number").values_list("number", "action")) == [
            (1, "create"), (2, "update")]
