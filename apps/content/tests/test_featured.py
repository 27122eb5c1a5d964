"""Featured posts (docs/content.md#featured-posts): an editorial mark set through the dashboard API
by whoever may edit the post (an author on their own draft; on a published post, as any change,
editors and admins only), kept by revisions and restored with them; and the order of a post's tags,
which the writer gives (its first tag is its primary tag)."""
from __future__ import annotations

from django_tenants.utils import schema_context

from apps.content import services
from apps.content.models import Post
from apps.content.tests.conftest import make_category, make_media, make_tag, post_payload
from apps.core.testing import Api, create_user


def _create(api, tenant, **overrides) -> dict:
    response = api.post("/api/posts/upload", post_payload(make_category(tenant), make_media(tenant), **overrides))
    assert response.status_code == 201, response.json()
    return response.json()["post"]


def test_a_post_is_featured_set_and_cleared_through_the_api(tenant, api):
    plain = _create(api, tenant)
    assert plain["featured"] is False
    assert list(plain)[list(plain).index("isScheduled") + 1] == "featured"  # after the summary's fields
    made = _create(api, tenant, featured=True, postTitle="Featured one")
    assert made["featured"] is True
    assert api.get(f"/api/posts/{made['id']}").json()["post"]["featured"] is True
    listed = {post["id"]: post["featured"] for post in api.get("/api/posts").json()["posts"]}
    assert listed == {plain["id"]: False, made["id"]: True}

    cleared = api.put(f"/api/posts/{made['id']}", {"featured": False})
    assert cleared.status_code == 200 and cleared.json()["post"]["featured"] is False
    kept = api.put(f"/api/posts/{plain['id']}", {"title": "Renamed", "featured": None})  # null: not sent
    assert kept.status_code == 200 and kept.json()["post"]["featured"] is False
    with schema_context(tenant.schema_name):
        assert Post.objects.get(pk=made["id"]).featured is False


def test_featured_takes_true_or_false_only(tenant, api):
    for value in ("yes", 1, "true"):
        response = api.post("/api/posts/upload", post_payload(make_category(tenant), make_media(tenant),
                                                              featured=value))
        assert response.status_code == 400, (value, response.json())


def test_a_revision_keeps_the_mark_and_a_restore_brings_it_back(tenant, api):
    post = _create(api, tenant, featured=True)
    assert api.put(f"/api/posts/{post['id']}", {"featured": False}).status_code == 200
    listed = api.get(f"/api/posts/{post['id']}/revisions").json()["revisions"]
    first, newest = listed[-1], listed[0]
    detail = api.get(f"/api/posts/{post['id']}/revisions/{first['id']}").json()["revision"]
    assert detail["snapshot"]["featured"] is True
    assert api.get(f"/api/posts/{post['id']}/revisions/{newest['id']}").json()["revision"]["snapshot"][
        "featured"] is False
    restored = api.post(f"/api/posts/{post['id']}/revisions/{first['id']}/restore")
    assert restored.status_code == 200 and restored.json()["post"]["featured"] is True


def test_a_revision_older_than_the_mark_restores_without_changing_it(tenant, api):
    post = _create(api, tenant, featured=True)
    with schema_context(tenant.schema_name):
        revision = Post.objects.get(pk=post["id"]).revisions.get(number=1)
        del revision.data["featured"]
        revision.save(update_fields=["data"])
    restored = api.post(f"/api/posts/{post['id']}/revisions/{revision.id}/restore")
    assert restored.status_code == 200, restored.json()
    assert restored.json()["post"]["featured"] is True


def test_whoever_may_edit_the_post_may_feature_it(tenant, api):
    author = create_user(tenant, "author")
    as_author = Api(tenant, user=author)
    own = _create(as_author, tenant, featured=True)  # an author's own draft
    assert own["featured"] is True
    assert as_author.put(f"/api/posts/{own['id']}", {"featured": False}).json()["post"]["featured"] is False
    others = _create(api, tenant)
    assert as_author.put(f"/api/posts/{others['id']}", {"featured": True}).status_code == 403
    assert api.put(f"/api/posts/{own['id']}", {"status": "published"}).status_code == 200
    # a published post changes only with editors and admins, its mark too
    assert as_author.put(f"/api/posts/{own['id']}", {"featured": True}).status_code == 403
    editor = Api(tenant, user=create_user(tenant, "editor"))
    assert editor.put(f"/api/posts/{own['id']}", {"featured": True}).json()["post"]["featured"] is True
    assert Api(tenant, user=create_user(tenant, "viewer")).put(
        f"/api/posts/{own['id']}", {"featured": False}).status_code == 403


def test_a_page_is_featured_as_a_post(tenant, api):
    page = api.post("/api/pages", post_payload(make_category(tenant), make_media(tenant), categories=[],
                                               featured=True))
    assert page.status_code == 201, page.json()
    assert page.json()["post"]["featured"] is True


def test_a_posts_tags_keep_the_writers_order(tenant, api):
    tags = [make_tag(tenant, name=name, slug=name.lower()) for name in ("Zebra", "Apple", "Mango")]
    ids = [str(tag.id) for tag in tags]
    post = _create(api, tenant, tags=ids)
    with schema_context(tenant.schema_name):
        assert [str(pk) for pk in services.tag_ids_in_order(post["id"])] == ids
    reordered = [ids[2], ids[0]]
    assert api.put(f"/api/posts/{post['id']}", {"tags": reordered}).status_code == 200
    with schema_context(tenant.schema_name):
        assert [str(pk) for pk in services.tag_ids_in_order(post["id"])] == reordered
    # a revision keeps the order, a translation copies it
    newest = api.get(f"/api/posts/{post['id']}/revisions").json()["revisions"][0]
    snapshot = api.get(f"/api/posts/{post['id']}/revisions/{newest['id']}").json()["revision"]["snapshot"]
    assert snapshot["tags"] == reordered


def test_featuring_a_published_post_purges_the_lists_not_only_its_own_replies(tenant, api, monkeypatch):
    """A `?featured=true` list cached at the edge does not hold a post that was just featured: the
    change is not `same_place` (apps.core.edge_cache: the company's replies are purged)."""
    from apps.core import subscribers

    seen = []

    def spy(**kwargs):
        seen.append(kwargs["same_place"])
        return None

    monkeypatch.setattr(subscribers, "post_change_tags", spy)
    post = _create(api, tenant, postStatus="published")
    seen.clear()
    assert api.put(f"/api/posts/{post['id']}", {"title": "A typo fixed"}).status_code == 200
    assert api.put(f"/api/posts/{post['id']}", {"featured": True}).status_code == 200
    assert api.put(f"/api/posts/{post['id']}", {"featured": True, "title": "Again"}).status_code == 200
    assert api.put(f"/api/posts/{post['id']}", {"featured": False}).status_code == 200
    assert seen == [True, False, True, False]
