"""Posts and pages through Ghost's Admin API (apps.ghost_api.tool.posts): written by the content
services (their rules, events, plan limits, webhooks), in Ghost's shapes, by the integration."""
from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.core.testing import create_user
from apps.ghost_api.tests.admin_client import Admin, ghost_error, make_integration, png


@pytest.fixture
def tool(tenant, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    _, _, key = make_integration(tenant, "Ulysses")
    return Admin(tenant, key)


def _add(tool, body: dict, path: str = "posts/?source=html"):
    response = tool.post(path, {"posts" if path.startswith("posts") else "pages": [body]})
    assert response.status_code == 201, response.content
    return response.json()["posts" if path.startswith("posts") else "pages"][0]


def _upload(tool) -> str:
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test.client import MULTIPART_CONTENT

    response = tool.post("images/upload/", {"file": SimpleUploadedFile("cover.png", png(), "image/png"),
                                             "ref": "cover.png"}, content_type=MULTIPART_CONTENT)
    assert response.status_code == 201, response.content
    return response.json()["images"][0]["url"]


def test_a_post_from_html_with_tags_and_an_uploaded_feature_image(tool, tenant):
    url = _upload(tool)
    post = _add(tool, {"title": "From Ulysses", "html": "<p>Hello <strong>there</strong></p>",
                        "tags": ["Writing", {"name": "Tools"}], "feature_image": url,
                        "feature_image_alt": "A red square", "custom_excerpt": "Short",
                        "meta_title": "SEO", "status": "published", "featured": True})
    assert post["title"] == "From Ulysses" and post["slug"] == "from-ulysses" and post["status"] == "published"
    assert post["html"] == "<p>Hello <strong>there</strong></p>"
    # its tags, and the default category (posts need one)
    assert {tag["name"] for tag in post["tags"]} == {"Uncategorized", "Writing", "Tools"}
    assert post["feature_image"] == url and post["feature_image_alt"] == "A red square"
    assert post["custom_excerpt"] == "Short" and post["meta_title"] == "SEO" and post["featured"] is True
    assert post["authors"][0]["slug"] and post["primary_author"] == post["authors"][0]
    assert post["published_at"] and post["updated_at"] and post["id"] and post["uuid"]
    assert post["lexical"] and post["visibility"] == "public"
    with schema_context(tenant.schema_name):
        from apps.content.models import Category, Post, Tag

        row = Post.objects.get(slug="from-ulysses")
        assert row.status == "published" and row.featured and row.excerpt == "Short"
        assert list(row.categories.values_list("slug", flat=True)) == ["uncategorized"]
        assert sorted(row.tags.values_list("name", flat=True)) == ["Tools", "Writing"]
        assert Category.objects.filter(slug="uncategorized").count() == 1 and Tag.objects.count() == 2
        assert row.featured_image.alt_text == "A red square"
        assert row.author.role == "admin"  # the company's first admin, as Ghost's owner


def test_a_post_is_read_back_by_the_content_api(tool, tenant):
    post = _add(tool, {"title": "Public now", "html": "<p>Read me</p>", "status": "published"})
    response = Admin(tenant, None).api.get(f"/ghost/api/content/posts/{post['id']}/",
                                           data={"key": tenant.ghost_content_key})
    assert response.status_code == 200
    assert response.json()["posts"][0]["html"] == "<p>Read me</p>"


def test_html_with_scripts_is_sanitised(tool, tenant):
    post = _add(tool, {"title": "Hostile", "status": "published", "html":
                        '<p onclick="steal()">Hi<script>alert(1)</script></p><img src="x" onerror="alert(2)">'
                        '<a href="javascript:alert(3)">link</a>'})
    for bad in ("<script", "onclick", "onerror", "javascript:"):
        assert bad not in post["html"]
    with schema_context(tenant.schema_name):
        from apps.content.models import Post

        assert "<script" not in Post.objects.get(slug="hostile").content


def test_lexical_and_mobiledoc_become_html(tool):
    lexical = ('{"root":{"children":[{"type":"heading","tag":"h2","children":[{"type":"text","text":"Title"}]},'
               '{"type":"paragraph","children":[{"type":"text","text":"Body <b>"}]}],"type":"root"}}')
    post = _add(tool, {"title": "Lexical", "lexical": lexical}, "posts/")
    assert post["html"] == "<h2>Title</h2>\n<p>Body &lt;b&gt;</p>" and post["status"] == "draft"
    mobiledoc = ('{"version":"0.3.1","atoms":[],"markups":[],"cards":[["html",{"html":"<p>Card<script>x</script>'
                 '</p>"}]],"sections":[[10,0],[1,"p",[[0,[],0,"Text"]]]]}')
    post = _add(tool, {"title": "Mobiledoc", "mobiledoc": mobiledoc}, "posts/")
    assert post["html"] == "<p>Card</p>\n<p>Text</p>"
    response = tool.post("posts/", {"posts": [{"title": "Broken", "lexical": "{not json"}]})
    assert response.status_code == 422 and ghost_error(response)["type"] == "ValidationError"


def test_tags_are_found_by_name_slug_or_id_and_made_through_the_term_services(tool, tenant):
    with schema_context(tenant.schema_name):
        from apps.content.services import category_create, tag_create

        news = category_create(name="News", slug="news")
        photo = tag_create(name="Photo", slug="photo")
    from apps.ghost_api.ids import ghost_id

    writes = []

    def watch(execute, sql, params, many, context):
        if sql.lstrip().upper().startswith("INSERT") and "content_tag" in sql and "content_post_tags" not in sql:
            import traceback

            frames = [frame.filename for frame in traceback.extract_stack() if "/apps/" in frame.filename
                      and "/tests/" not in frame.filename and "/.venv/" not in frame.filename]
            writes.append(frames[-1].split("/apps/", 1)[1])
        return execute(sql, params, many, context)

    with connection.execute_wrapper(watch):
        post = _add(tool, {"title": "Tagged", "html": "<p>x</p>",
                            "tags": [{"slug": "news"}, {"id": ghost_id(photo.pk)}, "photo", "Brand New",
                                     {"name": "brand new"}]})
    assert sorted(tag["slug"] for tag in post["tags"]) == ["brand-new", "news", "photo"]
    assert writes == ["content/services.py"]  # the new tag, made by the term services
    with schema_context(tenant.schema_name):
        from apps.audit.models import AuditEntry

        made = AuditEntry.objects.get(action="tag.created", summary="Brand New")
        assert made.summary == "Brand New" and made.actor_name == "Ulysses (integration)"
        # News was the category: none was made
        assert not AuditEntry.objects.filter(action="category.created", actor_name="Ulysses (integration)").exists()
    assert news


def test_the_audit_log_names_the_integration(tool, tenant):
    post = _add(tool, {"title": "Audited", "html": "<p>x</p>", "status": "published"})
    with schema_context(tenant.schema_name):
        from apps.audit.models import AuditEntry

        entries = list(AuditEntry.objects.filter(object_id__startswith=post["uuid"]).order_by("action")
                       .values_list("action", "actor_name", "actor_id"))
    assert entries == [("post.created", "Ulysses (integration)", None), ("post.published", "Ulysses (integration)", None)]
    response = Admin(tenant, None).api.get("/api/audit", headers={
        "Authorization": f"Bearer {_token(tenant)}"})
    assert any(entry["username"] == "Ulysses (integration)" for entry in response.json()["entries"])


def _token(tenant):
    from apps.core.testing import tenant_admin, token_for

    return token_for(tenant, tenant_admin(tenant))


def test_an_admin_api_publish_fires_the_webhook(tool, tenant, api, settings):
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    assert api.post("/api/webhooks", {"url": "http://127.0.0.1:9/hook", "events": ["post.published"]}).status_code == 201
    post = _add(tool, {"title": "Hooked", "html": "<p>x</p>", "status": "published"})
    with schema_context(tenant.schema_name):
        from apps.webhooks.models import WebhookDelivery

        sent = [(d.event, d.payload["data"]["post"]["slug"]) for d in WebhookDelivery.objects.all()]
    assert sent == [("post.published", "hooked")]
    assert post["status"] == "published"


def test_the_plans_posts_limit_applies(tool, tenant):
    from tenants.models import Client

    Client.objects.filter(pk=tenant.pk).update(plan_overrides={"posts": 1})
    _add(tool, {"title": "One", "html": "<p>x</p>"})
    response = tool.post("posts/?source=html", {"posts": [{"title": "Two", "html": "<p>x</p>"}]})
    assert response.status_code == 403
    error = ghost_error(response)
    assert error["type"] == "NoPermissionError" and error["code"] == "plan_limit"
    assert "Your plan allows 1 post" in error["message"]
    with schema_context(tenant.schema_name):
        from apps.content.models import Post, Tag

        assert list(Post.objects.values_list("title", flat=True)) == ["One"] and Tag.objects.count() == 0


def test_an_edit_needs_the_updated_at_it_read_and_a_stale_one_is_409(tool):
    post = _add(tool, {"title": "Draft one", "html": "<p>v1</p>"})
    path = f"posts/{post['id']}/?source=html"
    response = tool.put(path, {"posts": [{"title": "No date"}]})
    assert response.status_code == 422 and ghost_error(response)["property"] == "updated_at"
    time.sleep(0.01)
    edited = tool.put(path, {"posts": [{"title": "Draft two", "html": "<p>v2</p>", "updated_at": post["updated_at"]}]})
    assert edited.status_code == 200, edited.content
    edited = edited.json()["posts"][0]
    assert edited["title"] == "Draft two" and edited["html"] == "<p>v2</p>" and edited["slug"] == "draft-one"
    stale = tool.put(path, {"posts": [{"title": "Lost", "updated_at": post["updated_at"]}]})
    assert stale.status_code == 409
    error = ghost_error(stale)
    assert error["type"] == "UpdateCollisionError" and error["message"] == "Saving failed! Someone else is editing this post."
    assert tool.get(f"posts/{post['id']}/").json()["posts"][0]["title"] == "Draft two"


def test_schedule_publish_unpublish_and_delete(tool, tenant):
    post = _add(tool, {"title": "Later", "html": "<p>x</p>"})
    due = (timezone.now() + timedelta(days=2)).replace(microsecond=0)
    path = f"posts/{post['id']}/"
    refused = tool.put(path, {"posts": [{"status": "scheduled", "updated_at": post["updated_at"]}]})
    assert refused.status_code == 422 and ghost_error(refused)["property"] == "published_at"
    scheduled = tool.put(path, {"posts": [{"status": "scheduled", "published_at": due.isoformat(),
                                            "updated_at": post["updated_at"]}]}).json()["posts"][0]
    assert scheduled["status"] == "scheduled" and scheduled["published_at"].startswith(due.strftime("%Y-%m-%dT%H:%M:%S"))
    browse = tool.get("posts/", {"filter": "status:scheduled"}).json()
    assert [p["id"] for p in browse["posts"]] == [post["id"]]
    published = tool.put(path, {"posts": [{"status": "published", "updated_at": scheduled["updated_at"]}]}).json()
    published = published["posts"][0]
    assert published["status"] == "published" and published["published_at"] < due.isoformat()
    unpublished = tool.put(path, {"posts": [{"status": "draft", "updated_at": published["updated_at"]}]}).json()
    assert unpublished["posts"][0]["status"] == "draft"
    deleted = tool.delete(path)
    assert deleted.status_code == 204 and deleted.content == b""
    assert tool.get(path).status_code == 404
    assert ghost_error(tool.get(path))["message"] == "Post not found."


def test_a_scheduled_post_is_published_by_the_scheduler(tool, tenant):
    due = (timezone.now() + timedelta(minutes=5)).isoformat()
    post = _add(tool, {"title": "Soon", "html": "<p>x</p>", "status": "scheduled", "published_at": due})
    assert post["status"] == "scheduled"
    with schema_context(tenant.schema_name):
        from apps.content.services import publish_due_posts

        publish_due_posts(now=timezone.now() + timedelta(minutes=6))
    assert tool.get(f"posts/{post['id']}/").json()["posts"][0]["status"] == "published"


def test_pages_need_no_category(tool, tenant):
    page = _add(tool, {"title": "About", "html": "<p>Us</p>", "status": "published"}, "pages/?source=html")
    assert page["tags"] == [] and page["url"].endswith("/about/")
    assert tool.get(f"pages/{page['id']}/").json()["pages"][0]["title"] == "About"
    assert tool.get(f"posts/{page['id']}/").status_code == 404
    assert [p["slug"] for p in tool.get("pages/").json()["pages"]] == ["about"]
    assert tool.get("posts/").json()["posts"] == []


def test_browse_shows_every_status_with_filters_order_and_pages(tool):
    for n in range(3):
        _add(tool, {"title": f"Post {n}", "html": "<p>x</p>", "status": "published" if n else "draft",
                     "tags": ["Even" if n % 2 == 0 else "Odd"]})
    every = tool.get("posts/", {"limit": 2, "order": "title asc"}).json()
    assert [p["title"] for p in every["posts"]] == ["Post 0", "Post 1"]
    assert every["meta"]["pagination"] == {"page": 1, "limit": 2, "pages": 2, "total": 3, "next": 2, "prev": None}
    assert [p["title"] for p in tool.get("posts/", {"filter": "tag:even+status:published"}).json()["posts"]] == ["Post 2"]
    assert [p["status"] for p in tool.get("posts/", {"filter": "status:draft"}).json()["posts"]] == ["draft"]
    only = tool.get("posts/", {"fields": "id,title", "limit": 1}).json()["posts"][0]
    assert set(only) == {"id", "title"}
    assert tool.get("posts/", {"filter": "nope:1"}).status_code == 400
    assert tool.get("posts/slug/post-1/").json()["posts"][0]["title"] == "Post 1"
    formats = tool.get("posts/slug/post-1/", {"formats": "mobiledoc,plaintext"}).json()["posts"][0]
    assert "html" not in formats and "lexical" not in formats and formats["plaintext"] == "x"
    assert '"html": "<p>x</p>"' in formats["mobiledoc"]


def test_authors_are_staff_of_the_company(tool, tenant, other_tenant):
    writer = create_user(tenant, "author", email="writer@example.com", username="writer")
    stranger = create_user(other_tenant, "admin", email="stranger@example.com", username="stranger")
    post = _add(tool, {"title": "By writer", "html": "<p>x</p>", "authors": ["writer@example.com"]})
    assert post["authors"][0]["slug"] == "writer"
    # an author-role user's post is still published by the integration (an editor's rights)
    post = _add(tool, {"title": "Live", "html": "<p>x</p>", "authors": [{"slug": "writer"}], "status": "published"})
    assert post["status"] == "published"
    for authors in (["stranger@example.com"], [{"id": str(stranger.pk).replace("-", "")[:24]}], [{"slug": "nobody"}]):
        response = tool.post("posts/", {"posts": [{"title": "x", "authors": authors}]})
        assert response.status_code == 422 and ghost_error(response)["property"] == "authors"
    assert writer


def test_a_feature_image_must_be_the_companys_media(tool, tenant, other_tenant):
    response = tool.post("posts/", {"posts": [{"title": "x", "feature_image": "https://elsewhere.example/a.png"}]})
    assert response.status_code == 422
    error = ghost_error(response)
    assert error["property"] == "feature_image" and "images/upload" in error["message"]
    other = Admin(other_tenant, make_integration(other_tenant)[2])
    foreign = _upload(other)
    response = tool.post("posts/", {"posts": [{"title": "x", "feature_image": foreign}]})
    assert response.status_code == 422


@pytest.mark.parametrize("visibility", ["members", "paid", "tiers"])
def test_a_members_only_post_is_written_and_read_back_whole(tool, tenant, visibility):
    """Ghost's members, paid and tiers posts are members-only here (docs/content.md#members-only-posts):
    the Admin API answers the whole body (the staff read it), the Content API withholds it."""
    post = _add(tool, {"title": "Club news", "html": "<p>For the club</p>", "status": "published",
                       "visibility": visibility})
    assert post["visibility"] == "members" and post["html"] == "<p>For the club</p>" and post["access"] is True
    assert tool.get(f"posts/{post['id']}/").json()["posts"][0]["html"] == "<p>For the club</p>"
    with schema_context(tenant.schema_name):
        from apps.content.models import Post

        assert Post.objects.get(slug="club-news").visibility == "members"
    public = Admin(tenant, None).api.get(f"/ghost/api/content/posts/{post['id']}/",
                                         data={"key": tenant.ghost_content_key}).json()["posts"][0]
    assert public["visibility"] == "members" and public["html"] == "" and public["access"] is False
    edited = tool.put(f"posts/{post['id']}/", {"posts": [{"visibility": "public", "updated_at": post["updated_at"]}]})
    assert edited.status_code == 200, edited.content
    assert edited.json()["posts"][0]["visibility"] == "public"
    kept = tool.put(f"posts/{post['id']}/", {"posts": [{"title": "Renamed",
                                                        "updated_at": edited.json()["posts"][0]["updated_at"]}]})
    assert kept.status_code == 200 and kept.json()["posts"][0]["visibility"] == "public"


@pytest.mark.parametrize("visibility", ["private", "status:-free", 1, ["members"]])
def test_another_visibility_is_refused(tool, visibility):
    response = tool.post("posts/", {"posts": [{"title": "Members", "visibility": visibility}]})
    assert response.status_code == 422
    error = ghost_error(response)
    assert error["property"] == "visibility" and error["message"] == "Validation (isIn) failed for visibility"


def test_bodies_are_checked(tool, settings):
    settings.POST_BODY_MAX_BYTES = 10_000
    huge = tool.post("posts/?source=html", {"posts": [{"title": "Huge", "html": "<p>" + "x" * 20_000 + "</p>"}]})
    assert huge.status_code == 413 and ghost_error(huge)["type"] == "RequestEntityTooLargeError"
    for body in ({"post": [{"title": "x"}]}, {"posts": []}, {"posts": [{"title": "a"}, {"title": "b"}]}):
        response = tool.post("posts/", body)
        assert response.status_code == 422 and ghost_error(response)["type"] == "ValidationError"
    bad = tool.api.post("/ghost/api/admin/posts/", "{nope", content_type="application/json",
                         headers=tool._headers())
    assert bad.status_code == 400 and ghost_error(bad)["type"] == "BadRequestError"


def test_another_companys_post_is_not_found(tool, tenant, other_tenant):
    theirs = Admin(other_tenant, make_integration(other_tenant)[2])
    post = _add(theirs, {"title": "Theirs", "html": "<p>x</p>"})
    assert tool.get(f"posts/{post['id']}/").status_code == 404
    assert tool.put(f"posts/{post['id']}/", {"posts": [{"title": "Mine", "updated_at": post["updated_at"]}]}).status_code == 404
    assert tool.delete(f"posts/{post['id']}/").status_code == 404
    assert theirs.get(f"posts/{post['id']}/").json()["posts"][0]["title"] == "Theirs"


def test_a_company_whose_trial_ended_reads_but_does_not_write(tool, tenant):
    from tenants.models import Client

    Client.objects.filter(pk=tenant.pk).update(subscription_plan="trial",
                                               trial_ends_at=timezone.now() - timedelta(days=1))
    response = tool.post("posts/?source=html", {"posts": [{"title": "Late", "html": "<p>x</p>"}]})
    assert response.status_code == 403
    error = ghost_error(response)
    assert error["type"] == "NoPermissionError" and error["code"] == "plan_expired"
    assert tool.get("posts/").status_code == 200
