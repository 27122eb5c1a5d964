"""The permission matrix: four roles x every write endpoint of the content app. A refused write
is 403 with a clear message and changes nothing."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.content.models import Category, Post, Tag
from apps.content.tests.conftest import make_category, make_media, make_post, make_tag, post_payload
from apps.core.testing import Api, create_user, tenant_admin

ROLES = ("admin", "editor", "author", "viewer")
ALLOW, DENY = "allow", "deny"


def _snapshot(tenant):
    with schema_context(tenant.schema_name):
        return (
            sorted(Post.objects.values_list("id", "title", "status", "slug", "publish_scheduled", "published_at")),
            sorted(Category.objects.values_list("id", "name", "slug")),
            sorted(Tag.objects.values_list("id", "name", "slug")),
        )


class World:
    """A tenant with a user of the role under test, another staff member, and content of both."""

    def __init__(self, tenant, role):
        self.tenant = tenant
        self.actor = tenant_admin(tenant) if role == "admin" else create_user(tenant, role)
        self.other = create_user(tenant, "editor")
        self.api = Api(tenant, user=self.actor)
        self.category = make_category(tenant, "Kept", "kept")
        self.spare_category = make_category(tenant, "Spare", "spare")
        self.spare_tag = make_tag(tenant, "Spare tag", "spare-tag")
        self.media = make_media(tenant)
        self.own_draft = make_post(tenant, title="Own draft", author=self.actor, categories=[self.category],
                                   featured_image=self.media)
        self.own_published = make_post(tenant, title="Own live", author=self.actor, status="published",
                                       categories=[self.category], featured_image=self.media)
        self.own_scheduled = make_post(tenant, title="Own scheduled", author=self.actor, status="draft",
                                       publish_scheduled=True,
                                       scheduled_publish_date=timezone.now() + timedelta(days=2),
                                       categories=[self.category], featured_image=self.media)
        self.others_draft = make_post(tenant, title="Other's draft", author=self.other, categories=[self.category],
                                      featured_image=self.media)

    def payload(self, **overrides):
        return post_payload(self.category, self.media, **overrides)


# (action, {role: outcome}, expected 403 message or None)
MATRIX = [
    ("create draft post", {"admin": ALLOW, "editor": ALLOW, "author": ALLOW, "viewer": DENY},
     "You don't have permission to create posts"),
    ("create published post", {"admin": ALLOW, "editor": ALLOW, "author": DENY, "viewer": DENY}, None),
    ("edit own draft", {"admin": ALLOW, "editor": ALLOW, "author": ALLOW, "viewer": DENY},
     "You don't have permission to edit this post"),
    ("publish own draft", {"admin": ALLOW, "editor": ALLOW, "author": DENY, "viewer": DENY}, None),
    ("schedule own draft", {"admin": ALLOW, "editor": ALLOW, "author": DENY, "viewer": DENY}, None),
    ("edit own published post", {"admin": ALLOW, "editor": ALLOW, "author": DENY, "viewer": DENY}, None),
    # scheduled by an editor: an author's change would go live unreviewed
    ("edit own scheduled post", {"admin": ALLOW, "editor": ALLOW, "author": DENY, "viewer": DENY}, None),
    ("delete own published post", {"admin": ALLOW, "editor": ALLOW, "author": DENY, "viewer": DENY}, None),
    ("delete own scheduled post", {"admin": ALLOW, "editor": ALLOW, "author": DENY, "viewer": DENY}, None),
    ("edit other's draft", {"admin": ALLOW, "editor": ALLOW, "author": DENY, "viewer": DENY},
     "You don't have permission to edit this post"),
    ("delete own post", {"admin": ALLOW, "editor": ALLOW, "author": ALLOW, "viewer": DENY},
     "You don't have permission to delete this post"),
    ("delete other's post", {"admin": ALLOW, "editor": ALLOW, "author": DENY, "viewer": DENY},
     "You don't have permission to delete this post"),
    ("add category", {"admin": ALLOW, "editor": ALLOW, "author": ALLOW, "viewer": DENY},
     "You don't have permission to create categories or tags"),
    ("update category", {"admin": ALLOW, "editor": ALLOW, "author": DENY, "viewer": DENY},
     "You don't have permission to change or delete categories or tags"),
    ("delete category", {"admin": ALLOW, "editor": ALLOW, "author": DENY, "viewer": DENY},
     "You don't have permission to change or delete categories or tags"),
    ("add tag", {"admin": ALLOW, "editor": ALLOW, "author": ALLOW, "viewer": DENY},
     "You don't have permission to create categories or tags"),
    ("update tag", {"admin": ALLOW, "editor": ALLOW, "author": DENY, "viewer": DENY},
     "You don't have permission to change or delete categories or tags"),
    ("delete tag", {"admin": ALLOW, "editor": ALLOW, "author": DENY, "viewer": DENY},
     "You don't have permission to change or delete categories or tags"),
]

PUBLISH_DENIED = "Authors cannot publish posts. Ask an editor or admin to publish it."
PUBLISHED_LOCKED = "Authors cannot change a published post. Ask an editor or admin to make the change."
SCHEDULED_LOCKED = "Authors cannot change a scheduled post. Ask an editor or admin to make the change."
LIVE_DELETE_LOCKED = "Authors cannot delete a published or scheduled post. Ask an editor or admin to remove it."
AUTHOR_MESSAGES = {"edit own published post": PUBLISHED_LOCKED, "edit own scheduled post": SCHEDULED_LOCKED,
                   "delete own published post": LIVE_DELETE_LOCKED, "delete own scheduled post": LIVE_DELETE_LOCKED}


def perform(world: World, action: str):
    api = world.api
    if action == "create draft post":
        return api.post("/api/posts/upload", world.payload()), 201
    if action == "create published post":
        return api.post("/api/posts/upload", world.payload(postStatus="published")), 201
    if action == "edit own draft":
        return api.put(f"/api/posts/{world.own_draft.id}", {"title": "Edited"}), 200
    if action == "publish own draft":
        return api.put(f"/api/posts/{world.own_draft.id}", {"status": "published"}), 200
    if action == "schedule own draft":
        return api.put(f"/api/posts/{world.own_draft.id}",
                       {"status": "published", "scheduledPublishDate": "2099-01-01"}), 200
    if action == "edit own published post":
        return api.put(f"/api/posts/{world.own_published.id}", {"title": "Edited live"}), 200
    if action == "edit own scheduled post":
        return api.put(f"/api/posts/{world.own_scheduled.id}", {"title": "Edited while scheduled"}), 200
    if action == "delete own published post":
        return api.delete(f"/api/posts/{world.own_published.id}"), 200
    if action == "delete own scheduled post":
        return api.delete(f"/api/posts/{world.own_scheduled.id}"), 200
    if action == "edit other's draft":
        return api.put(f"/api/posts/{world.others_draft.id}", {"title": "Hijacked"}), 200
    if action == "delete own post":
        return api.delete(f"/api/posts/{world.own_draft.id}"), 200
    if action == "delete other's post":
        return api.delete(f"/api/posts/{world.others_draft.id}"), 200
    if action == "add category":
        return api.post("/api/categories/add", {"name": "New", "slug": "new"}), 201
    if action == "update category":
        return api.put(f"/api/categories/{world.spare_category.id}", {"name": "Renamed", "slug": "renamed"}), 200
    if action == "delete category":
        return api.delete(f"/api/categories/{world.spare_category.id}"), 200
    if action == "add tag":
        return api.post("/api/tags/add", {"name": "New", "slug": "new"}), 201
    if action == "update tag":
        return api.put(f"/api/tags/{world.spare_tag.id}", {"name": "Renamed", "slug": "renamed"}), 200
    if action == "delete tag":
        return api.delete(f"/api/tags/{world.spare_tag.id}"), 200
    raise AssertionError(action)


CASES = [(action, role, outcomes[role], message) for action, outcomes, message in MATRIX for role in ROLES]


@pytest.mark.parametrize("action, role, outcome, message", CASES, ids=[f"{a}-{r}" for a, r, _, _ in CASES])
def test_permission_matrix(tenant, action, role, outcome, message):
    world = World(tenant, role)
    before = _snapshot(tenant)
    response, success_status = perform(world, action)
    if outcome == ALLOW:
        assert response.status_code == success_status, response.json()
        assert _snapshot(tenant) != before
        return
    assert response.status_code == 403, response.json()
    body = response.json()
    assert body["success"] is False and body["error"] == "forbidden"
    if message is None:  # the author's publishing rules
        message = AUTHOR_MESSAGES.get(action, PUBLISH_DENIED)
        if role == "viewer":
            message = "You don't have permission to delete this post" if action.startswith("delete") else {
                "create published post": "You don't have permission to create posts"}.get(
                action, "You don't have permission to edit this post")
    assert body["message"] == message
    assert _snapshot(tenant) == before


def test_author_may_keep_own_post_as_draft_or_archive_it(tenant):
    world = World(tenant, "author")
    response = world.api.put(f"/api/posts/{world.own_draft.id}", {"status": "archived", "title": "Shelved"})
    assert response.status_code == 200 and response.json()["post"]["status"] == "archived"
    response = world.api.put(f"/api/posts/{world.own_draft.id}", {"status": "draft"})
    assert response.status_code == 200 and response.json()["post"]["status"] == "draft"


def test_every_role_reads_content(tenant):
    for role in ROLES:
        world_api = Api(tenant, user=tenant_admin(tenant) if role == "admin" else create_user(tenant, role))
        for path in ("/api/posts", "/api/categories", "/api/tags", "/api/search?q=ab"):
            assert world_api.get(path).status_code == 200, (role, path)


def test_anonymous_is_401_everywhere(anon, tenant):
    category = make_category(tenant)
    for method, path in [("get", "/api/posts"), ("post", "/api/posts/upload"), ("get", "/api/categories"),
                         ("post", "/api/categories/add"), ("delete", f"/api/categories/{category.id}"),
                         ("get", "/api/tags"), ("post", "/api/tags/add"), ("get", "/api/search?q=abc")]:
        response = getattr(anon, method)(path)
        assert response.status_code == 401, (method, path)
