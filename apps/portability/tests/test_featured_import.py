"""Ghost's `featured` and tag order through imports and exports (docs/import-export.md): a post
featured in a Ghost export (true or 1) is featured here, the others not; its tags keep the export's
`sort_order` (the first is its primary tag); a run of the same file again brings a changed mark; our
own Ghost-format export writes the mark and the post's tag order, and they come back through our
importer."""
from __future__ import annotations

import io
import json
import zipfile

import pytest
from django_tenants.utils import schema_context

from apps.content import services as content_services
from apps.content.models import Post
from apps.content.tests.factories import make_category, make_post, make_tag
from apps.core import testing
from apps.portability import services
from apps.portability.tests.test_export import _export
from apps.portability.tests.test_import_samples import run, upload_bytes

pytestmark = pytest.mark.django_db


def _ghost(posts: list[dict], tags: list[dict] = (), posts_tags: list[dict] = ()) -> bytes:
    return json.dumps({"db": [{"meta": {"version": "5.0.0"}, "data": {
        "posts": posts, "tags": list(tags), "posts_tags": list(posts_tags)}}]}).encode()


def _post(source_id: str, featured) -> dict:
    row = {"id": source_id, "title": f"Post {source_id}", "slug": f"post-{source_id}", "html": "<p>Text</p>",
           "status": "published", "type": "post"}
    if featured is not None:
        row["featured"] = featured
    return row


def _import(tenant, api, data: bytes) -> None:
    job = upload_bytes(api, data, "ghost.json").json()["job"]
    run(tenant, job["id"])


def test_ghost_featured_posts_are_featured(tenant, api, monkeypatch):
    tags = [{"id": f"t{n}", "name": name, "slug": name.lower()} for n, name in enumerate(("Zebra", "Apple", "Mango"))]
    data = _ghost([_post("a", True), _post("b", 1), _post("c", False), _post("d", 0), _post("e", None),
                   _post("f", "true")], tags=tags,
                  posts_tags=[{"id": f"x{n}", "post_id": "a", "tag_id": tag_id, "sort_order": order}
                              for n, (tag_id, order) in enumerate((("t0", 2), ("t1", 0), ("t2", 1)))])
    _import(tenant, api, data)
    with schema_context(tenant.schema_name):
        assert dict(Post.objects.values_list("slug", "featured")) == {
            "post-a": True, "post-b": True, "post-c": False, "post-d": False, "post-e": False, "post-f": True}
        post = Post.objects.get(slug="post-a")
        ordered = [post.tags.get(pk=pk).slug for pk in content_services.tag_ids_in_order(post.pk)]
        assert ordered == ["apple", "mango", "zebra"]  # by sort_order
        assert post.revisions.get().data["featured"] is True
    listed = api.get("/api/posts").json()["posts"]
    assert {post["slug"]: post["featured"] for post in listed}["post-a"] is True

    # the same file again, with the mark changed at the source: the post follows it (the existing
    # posts' tag orders are read at once, never post by post)
    from apps.content import bulk

    read_alone = []
    monkeypatch.setattr(bulk, "tag_ids_in_order", lambda post_id: read_alone.append(post_id))
    _import(tenant, api, _ghost([_post("a", False), _post("b", 1), _post("c", True), _post("d", 0),
                                 _post("e", None), _post("f", "true")], tags=tags))
    assert read_alone == []
    with schema_context(tenant.schema_name):
        assert dict(Post.objects.values_list("slug", "featured"))["post-a"] is False
        assert dict(Post.objects.values_list("slug", "featured"))["post-c"] is True


def test_our_export_carries_the_mark_and_the_tag_order_back(tenant, make_tenant, admin, api):
    news = make_category(tenant, "News", slug="news")
    zebra, apple = make_tag(tenant, "Zebra", slug="zebra"), make_tag(tenant, "Apple", slug="apple")
    make_post(tenant, "Featured", slug="featured", status="published", author=admin, categories=[news],
              tags=[zebra, apple], featured=True)
    make_post(tenant, "Plain", slug="plain", status="published", author=admin, categories=[news])
    _, data = _export(tenant, api)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        document = json.loads(archive.read("export.json"))["db"][0]["data"]
    rows = {row["slug"]: row for row in document["posts"]}
    assert rows["featured"]["featured"] is True and rows["plain"]["featured"] is False
    links = sorted((row for row in document["posts_tags"] if row["post_id"] == rows["featured"]["id"]),
                   key=lambda row: row["sort_order"])
    assert [row["tag_id"] for row in links] == [str(zebra.id), str(apple.id)]  # the post's order, not by name

    other = make_tenant()
    other_api = testing.Api(other, user=testing.tenant_admin(other))
    job = upload_bytes(other_api, data, "export.zip").json()["job"]["id"]
    assert other_api.post(f"/api/imports/{job}/start", {}).status_code == 202
    with schema_context(other.schema_name):
        assert services.import_run(job_id=job).status == "completed"
        assert dict(Post.objects.values_list("slug", "featured")) == {"featured": True, "plain": False}
        post = Post.objects.get(slug="featured")
        assert [post.tags.get(pk=pk).slug for pk in content_services.tag_ids_in_order(post.pk)] == ["zebra", "apple"]
