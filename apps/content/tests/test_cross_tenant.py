"""Tenancy: ids and slugs of company A are 404 on company B's host, B's lists and searches never
include A's rows, A's ids cannot be linked from B, and A's token does not work on B."""
from __future__ import annotations

import pytest
from django_tenants.utils import schema_context

from apps.content.models import Category, Post, Tag
from apps.content.tests.conftest import make_category, make_media, make_post, make_tag, post_payload
from apps.core.testing import Api, tenant_admin


@pytest.fixture
def a_content(tenant):
    """Company A (`tenant`) with a published post, its category, tag and image."""
    category = make_category(tenant, "Secret category", "secret-category")
    tag = make_tag(tenant, "Secret tag", "secret-tag")
    media = make_media(tenant)
    post = make_post(tenant, title="Secret merger plans", slug="secret-merger-plans", status="published",
                     categories=[category], tags=[tag], featured_image=media)
    return {"post": post, "category": category, "tag": tag, "media": media}


@pytest.fixture
def b_api(other_tenant):
    return Api(other_tenant, user=tenant_admin(other_tenant))


def test_a_post_is_404_on_b_by_id_and_by_slug(a_content, b_api):
    post = a_content["post"]
    for path in (f"/api/posts/{post.id}", "/api/posts/slug/secret-merger-plans"):
        response = b_api.get(path)
        assert response.status_code == 404, path
        assert response.json()["message"] == "Post not found"


def test_a_post_cannot_be_changed_or_deleted_from_b(a_content, b_api, tenant):
    post = a_content["post"]
    assert b_api.put(f"/api/posts/{post.id}", {"title": "Hacked"}).status_code == 404
    assert b_api.delete(f"/api/posts/{post.id}").status_code == 404
    with schema_context(tenant.schema_name):
        assert Post.objects.get(pk=post.pk).title == "Secret merger plans"


def test_a_categories_and_tags_are_404_on_b(a_content, b_api, tenant):
    category, tag = a_content["category"], a_content["tag"]
    assert b_api.get(f"/api/categories/{category.id}").status_code == 404
    assert b_api.put(f"/api/categories/{category.id}", {"name": "X", "slug": "x"}).status_code == 404
    assert b_api.delete(f"/api/categories/{category.id}").status_code == 404
    assert b_api.get(f"/api/tags/{tag.id}").status_code == 404
    assert b_api.put(f"/api/tags/{tag.id}", {"name": "X", "slug": "x"}).status_code == 404
    assert b_api.delete(f"/api/tags/{tag.id}").status_code == 404
    with schema_context(tenant.schema_name):
        assert Category.objects.get(pk=category.pk).name == "Secret category"
        assert Tag.objects.get(pk=tag.pk).name == "Secret tag"


def test_b_lists_and_search_never_include_a(a_content, b_api, other_tenant):
    make_post(other_tenant, title="B's own post", status="published")
    posts = b_api.get("/api/posts", {"status": "all"}).json()
    assert [p["title"] for p in posts["posts"]] == ["B's own post"] and posts["totalPosts"] == 1
    assert b_api.get("/api/posts", {"search": "secret"}).json()["posts"] == []
    assert b_api.get("/api/posts", {"category": "secret-category"}).json()["posts"] == []
    assert b_api.get("/api/posts", {"category": str(a_content["category"].id)}).json()["posts"] == []
    assert b_api.get("/api/posts", {"tag": "secret-tag"}).json()["posts"] == []
    assert b_api.get("/api/categories").json()["categories"] == []
    assert b_api.get("/api/tags").json()["tags"] == [] and b_api.get("/api/tags").json()["total"] == 0
    results = b_api.get("/api/search", {"q": "secret"}).json()["results"]
    assert results == {"posts": [], "categories": [], "tags": []}


def test_b_cannot_link_a_categories_tags_or_media(a_content, other_tenant, b_api):
    b_category, b_media = make_category(other_tenant, "B cat", "b-cat"), make_media(other_tenant)
    attempts = [
        ("categories", [str(a_content["category"].id)], "One or more selected categories do not exist"),
        ("tags", [str(a_content["tag"].id)], "One or more selected tags do not exist"),
        ("featuredMediaId", str(a_content["media"].id), "The featured image does not exist in the media library"),
    ]
    for field, value, message in attempts:
        response = b_api.post("/api/posts/upload", post_payload(b_category, b_media, **{field: value}))
        assert response.status_code == 400, field
        assert response.json()["errors"] == [{"field": field, "message": message}]
    with schema_context(other_tenant.schema_name):
        assert not Post.objects.exists()


def test_same_slugs_live_independently_in_two_companies(a_content, other_tenant, b_api):
    make_category(other_tenant, "Mine", "b-only")
    b_media, b_category = make_media(other_tenant), make_category(other_tenant, "Secret category", "secret-category")
    created = b_api.post("/api/posts/upload", post_payload(b_category, b_media, postTitle="Secret merger plans"))
    assert created.json()["post"]["slug"] == "secret-merger-plans"  # no suffix: A's slug is not B's
    assert b_api.post("/api/tags/add", {"name": "Secret tag", "slug": "secret-tag"}).status_code == 201


def test_a_token_does_not_work_on_b_host(a_content, tenant, other_tenant, admin):
    from apps.accounts.tokens import token_issue

    # a token minted for A's schema, sent to B's host
    token, _ = token_issue(user=admin, schema_name=tenant.schema_name)
    a_token_on_b = Api(other_tenant, token=token)
    assert a_token_on_b.get("/api/posts").status_code == 401
    assert a_token_on_b.get(f"/api/posts/{a_content['post'].id}").status_code == 401
    assert a_token_on_b.post("/api/categories/add", {"name": "X", "slug": "x"}).status_code == 401
