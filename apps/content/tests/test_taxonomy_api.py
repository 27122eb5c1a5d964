"""Categories and tags endpoints."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django_tenants.utils import schema_context

from apps.content.models import Category, Tag
from apps.content.tests.conftest import make_category, make_post, make_tag


def _queries(api, path, params=None) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = api.get(path, params)
    assert response.status_code == 200
    return len([q for q in ctx.captured_queries if not q["sql"].startswith("SET search_path")])


# --- categories ----------------------------------------------------------------------------------
def test_category_add_get_update_delete(api):
    response = api.post("/api/categories/add", {"name": "Travel", "slug": "travel", "description": "Trips"})
    assert response.status_code == 201
    body = response.json()
    assert body["success"] is True and body["message"] == "Category created successfully"
    category = body["category"]
    assert {k: category[k] for k in ("name", "slug", "description", "postCount")} == {
        "name": "Travel", "slug": "travel", "description": "Trips", "postCount": 0}

    got = api.get(f"/api/categories/{category['id']}").json()
    assert got["success"] is True and got["category"] == category

    updated = api.put(f"/api/categories/{category['id']}", {"name": "Journeys", "slug": "journeys"}).json()
    assert updated["message"] == "Category updated successfully"
    assert updated["category"]["name"] == "Journeys" and updated["category"]["slug"] == "journeys"
    assert updated["category"]["description"] == "Trips"  # left out: kept

    deleted = api.delete(f"/api/categories/{category['id']}")
    assert deleted.status_code == 200 and deleted.json() == {"success": True, "message": "Category deleted successfully"}
    assert api.get(f"/api/categories/{category['id']}").status_code == 404


def test_category_slug_is_normalised_with_the_spec_rule(api):
    category = api.post("/api/categories/add", {"name": "Big News", "slug": "  Big News!! "}).json()["category"]
    assert category["slug"] == "big-news" and category["description"] == ""


def test_category_list_with_post_counts_sorted_by_name(api, tenant):
    b, a = make_category(tenant, "Beta", "beta"), make_category(tenant, "Alpha", "alpha")
    make_post(tenant, categories=[a, b])
    make_post(tenant, categories=[a])
    body = api.get("/api/categories").json()
    assert body["success"] is True
    assert [(c["name"], c["postCount"]) for c in body["categories"]] == [("Alpha", 2), ("Beta", 1)]
    assert set(body["categories"][0]) == {"id", "name", "slug", "description", "postCount"}


@pytest.mark.parametrize("body, message, field", [
    ({"name": "", "slug": "x"}, "Name is required", "name"),
    ({"slug": "x"}, "Name is required", "name"),
    ({"name": "X", "slug": ""}, "Slug is required", "slug"),
    ({"name": "X"}, "Slug is required", "slug"),
    ({"name": "X", "slug": "!!!"}, "Slug must contain letters or numbers", "slug"),
    ({"name": "X" * 101, "slug": "x"}, "Name must be at most 100 characters", "name"),
])
def test_category_validation(api, tenant, body, message, field):
    response = api.post("/api/categories/add", body)
    assert response.status_code == 400
    assert response.json()["message"] == message
    assert {"field": field, "message": message} in response.json()["errors"]
    with schema_context(tenant.schema_name):
        assert not Category.objects.exists()


def test_category_duplicate_slug_is_409(api, tenant):
    make_category(tenant, "News", "news")
    response = api.post("/api/categories/add", {"name": "Other news", "slug": "News"})
    assert response.status_code == 409
    assert response.json()["error"] == "conflict"
    assert response.json()["message"] == "A category with this slug already exists"
    assert response.json()["code"] == "slug_taken"
    other = make_category(tenant, "Other", "other")
    renamed = api.put(f"/api/categories/{other.id}", {"name": "Other", "slug": "news"})
    assert renamed.status_code == 409 and renamed.json()["code"] == "slug_taken"
    assert api.put(f"/api/categories/{other.id}", {"name": "Renamed", "slug": "other"}).status_code == 200


def test_category_update_validation_keeps_the_row(api, tenant):
    category = make_category(tenant, "Keep", "keep")
    response = api.put(f"/api/categories/{category.id}", {"name": "", "slug": "keep"})
    assert response.status_code == 400 and response.json()["message"] == "Name is required"
    assert api.get(f"/api/categories/{category.id}").json()["category"]["name"] == "Keep"


def test_category_in_use_cannot_be_deleted(api, tenant):
    category = make_category(tenant, "Busy", "busy")
    make_post(tenant, categories=[category])
    make_post(tenant, categories=[category])
    response = api.delete(f"/api/categories/{category.id}")
    assert response.status_code == 409
    body = response.json()
    assert body["error"] == "conflict" and body["code"] == "category_in_use"
    assert "currently used in posts" in body["message"]
    assert body["message"].startswith('Cannot delete category "Busy"') and "2 posts" in body["message"]
    assert api.get(f"/api/categories/{category.id}").status_code == 200


@pytest.mark.parametrize("method", ["get", "put", "delete"])
def test_unknown_category_is_404(api, method):
    for ident in ("00000000-0000-0000-0000-000000000000", "nope"):
        call = getattr(api, method)
        response = call(f"/api/categories/{ident}", {"name": "A", "slug": "a"} if method == "put" else None)
        assert response.status_code == 404 and response.json()["message"] == "Category not found"


def test_category_list_query_count_is_constant(api, tenant):
    make_category(tenant)
    few = _queries(api, "/api/categories")
    categories = [make_category(tenant) for _ in range(15)]
    make_post(tenant, categories=categories)
    assert _queries(api, "/api/categories") == few <= 3


# --- tags ----------------------------------------------------------------------------------------
def test_tag_add_get_update_delete(api):
    response = api.post("/api/tags/add", {"name": "Django", "slug": "django"})
    assert response.status_code == 201
    body = response.json()
    assert body["message"] == "Tag created successfully"
    tag = body["tag"]
    assert {k: tag[k] for k in ("name", "slug", "postCount")} == {"name": "Django", "slug": "django", "postCount": 0}
    assert api.get(f"/api/tags/{tag['id']}").json() == {"success": True, "tag": tag}
    updated = api.put(f"/api/tags/{tag['id']}", {"name": "Django 5", "slug": "django-5"}).json()
    assert updated["message"] == "Tag updated successfully"
    assert updated["tag"]["name"] == "Django 5" and updated["tag"]["slug"] == "django-5"
    deleted = api.delete(f"/api/tags/{tag['id']}")
    assert deleted.status_code == 200 and deleted.json()["message"] == "Tag deleted successfully"
    assert api.get(f"/api/tags/{tag['id']}").status_code == 404


def test_tag_list_is_paged_with_totals(api, tenant):
    for number in range(13):
        make_tag(tenant, f"Tag {number:02d}", f"tag-{number:02d}")
    body = api.get("/api/tags").json()
    assert body["success"] is True and body["total"] == 13
    assert body["pagination"] == {"total": 13, "totalPages": 2, "currentPage": 1, "limit": 10}
    assert [t["name"] for t in body["tags"]] == [f"Tag {n:02d}" for n in range(10)]
    second = api.get("/api/tags", {"page": 2}).json()
    assert [t["name"] for t in second["tags"]] == ["Tag 10", "Tag 11", "Tag 12"]
    everything = api.get("/api/tags", {"page": 1, "limit": 1000}).json()
    assert len(everything["tags"]) == 13 and everything["pagination"]["totalPages"] == 1
    assert api.get("/api/tags", {"limit": 1001}).json()["message"] == "Limit must be at most 1000"


def test_tag_post_counts(api, tenant):
    tag = make_tag(tenant, "Used", "used")
    make_tag(tenant, "Unused", "unused")
    make_post(tenant, tags=[tag])
    counts = {t["name"]: t["postCount"] for t in api.get("/api/tags").json()["tags"]}
    assert counts == {"Unused": 0, "Used": 1}


@pytest.mark.parametrize("body, message", [
    ({"name": " ", "slug": "x"}, "Name is required"),
    ({"name": "X", "slug": ""}, "Slug is required"),
    ({}, "Name is required"),
])
def test_tag_validation(api, tenant, body, message):
    response = api.post("/api/tags/add", body)
    assert response.status_code == 400 and response.json()["message"] == message
    with schema_context(tenant.schema_name):
        assert not Tag.objects.exists()


def test_tag_duplicate_slug_is_409(api, tenant):
    make_tag(tenant, "Python", "python")
    response = api.post("/api/tags/add", {"name": "Python again", "slug": "python"})
    assert response.status_code == 409 and response.json()["message"] == "A tag with this slug already exists"
    assert response.json()["code"] == "slug_taken"


def test_tag_in_use_cannot_be_deleted(api, tenant):
    tag = make_tag(tenant, "Busy", "busy")
    for _ in range(3):
        make_post(tenant, tags=[tag])
    response = api.delete(f"/api/tags/{tag.id}")
    assert response.status_code == 409
    assert response.json()["message"] == 'Cannot delete tag "Busy": it is currently used in 3 posts'
    assert response.json()["code"] == "tag_in_use"
    assert api.get(f"/api/tags/{tag.id}").status_code == 200

    single = make_tag(tenant, "Once", "once")
    make_post(tenant, tags=[single])
    assert api.delete(f"/api/tags/{single.id}").json()["message"] == (
        'Cannot delete tag "Once": it is currently used in 1 post')


@pytest.mark.parametrize("method", ["get", "put", "delete"])
def test_unknown_tag_is_404(api, method):
    response = getattr(api, method)("/api/tags/00000000-0000-0000-0000-000000000000",
                                    {"name": "A", "slug": "a"} if method == "put" else None)
    assert response.status_code == 404 and response.json()["message"] == "Tag not found"


def test_tag_list_query_count_is_constant(api, tenant):
    make_tag(tenant)
    few = _queries(api, "/api/tags", {"limit": 100})
    tags = [make_tag(tenant) for _ in range(25)]
    make_post(tenant, tags=tags)
    assert _queries(api, "/api/tags", {"limit": 100}) == few <= 4
