"""GET /api/search: posts, categories and tags with the spec's limits and filters (§2, §9)."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.content.models import Post
from apps.content.tests.conftest import make_category, make_media, make_post, make_tag


def _age(tenant, post, days):
    with schema_context(tenant.schema_name):
        Post.objects.filter(pk=post.pk).update(created_at=timezone.now() - timedelta(days=days))


def test_search_returns_posts_categories_and_tags(api, tenant):
    category = make_category(tenant, "Django tips", "django-tips")
    make_tag(tenant, "django", "django")
    make_tag(tenant, "Flask", "flask")
    post = make_post(tenant, title="Django forms in depth", categories=[category])
    make_post(tenant, title="Unrelated", content="<p>nothing</p>")
    response = api.get("/api/search", {"q": "django"})
    assert response.status_code == 200
    body = response.json()
    assert body["success"] is True
    results = body["results"]
    assert [p["id"] for p in results["posts"]] == [str(post.id)]
    assert results["posts"][0]["categories"][0]["slug"] == "django-tips"
    assert [c["name"] for c in results["categories"]] == ["Django tips"]
    assert results["categories"][0]["postCount"] == 1
    assert [t["name"] for t in results["tags"]] == ["django"]


@pytest.mark.parametrize("q", [None, "", "a", " a "])
def test_query_of_fewer_than_two_characters_is_refused(api, q):
    response = api.get("/api/search", {"q": q} if q is not None else None)
    assert response.status_code == 400
    assert response.json()["message"] == "Search query must be at least 2 characters"


def test_limits_are_10_posts_5_categories_5_tags(api, tenant):
    for number in range(12):
        make_post(tenant, title=f"Alpha post {number}")
    for number in range(7):
        make_category(tenant, f"Alpha cat {number}", f"alpha-cat-{number}")
        make_tag(tenant, f"Alpha tag {number}", f"alpha-tag-{number}")
    results = api.get("/api/search", {"q": "alpha"}).json()["results"]
    assert (len(results["posts"]), len(results["categories"]), len(results["tags"])) == (10, 5, 5)


def test_best_match_first(api, tenant):
    weak = make_post(tenant, title="Cooking notes", content="<p>we once used a kettle</p>")
    strong = make_post(tenant, title="Kettle reviews", content="<p>The best kettle, kettle comparisons</p>")
    posts = api.get("/api/search", {"q": "kettle"}).json()["results"]["posts"]
    assert [p["id"] for p in posts] == [str(strong.id), str(weak.id)]


@pytest.mark.parametrize("types, expected", [
    ("posts", {"posts"}), ("categories", {"categories"}), ("tags", {"tags"}), ("posts,tags", {"posts", "tags"}),
    ("post,category", {"posts", "categories"}), ("all", {"posts", "categories", "tags"}),
    ("", {"posts", "categories", "tags"}),
])
def test_types_filter(api, tenant, types, expected):
    make_post(tenant, title="Omega post")
    make_category(tenant, "Omega cat", "omega-cat")
    make_tag(tenant, "Omega tag", "omega-tag")
    results = api.get("/api/search", {"q": "omega", "types": types}).json()["results"]
    assert {kind for kind, items in results.items() if items} == expected
    assert set(results) == {"posts", "categories", "tags"}


def test_bad_filters_are_400(api):
    assert api.get("/api/search", {"q": "ab", "types": "users"}).json()["message"] == (
        "Types must be posts, categories, tags or all")
    assert api.get("/api/search", {"q": "ab", "status": "gone"}).status_code == 400
    assert api.get("/api/search", {"q": "ab", "dateRange": "decade"}).json()["message"] == (
        "Date range must be week, month or year")


def test_status_filter(api, tenant):
    make_post(tenant, title="Zeta draft")
    live = make_post(tenant, title="Zeta live", status="published")
    make_post(tenant, title="Zeta archived", status="archived")
    posts = api.get("/api/search", {"q": "zeta", "status": "published"}).json()["results"]["posts"]
    assert [p["id"] for p in posts] == [str(live.id)]
    assert len(api.get("/api/search", {"q": "zeta", "status": "all"}).json()["results"]["posts"]) == 3


@pytest.mark.parametrize("date_range, visible", [
    ("week", {"3 days"}), ("month", {"3 days", "20 days"}), ("year", {"3 days", "20 days", "200 days"}),
    ("", {"3 days", "20 days", "200 days", "800 days"}),
])
def test_date_range_filter(api, tenant, date_range, visible):
    for days in (3, 20, 200, 800):
        _age(tenant, make_post(tenant, title=f"Theta {days} days"), days)
    posts = api.get("/api/search", {"q": "theta", "dateRange": date_range}).json()["results"]["posts"]
    assert {p["title"].removeprefix("Theta ") for p in posts} == visible


def test_search_query_count_is_constant(api, tenant):
    def queries():
        with CaptureQueriesContext(connection) as ctx:
            assert api.get("/api/search", {"q": "sigma"}).status_code == 200
        return len([q for q in ctx.captured_queries if not q["sql"].startswith("SET search_path")])

    make_post(tenant, title="Sigma one")
    few = queries()
    image = make_media(tenant)
    cats = [make_category(tenant, f"Sigma c{n}", f"sigma-c{n}") for n in range(6)]
    tags = [make_tag(tenant, f"Sigma t{n}", f"sigma-t{n}") for n in range(6)]
    for number in range(12):
        make_post(tenant, title=f"Sigma {number}", categories=cats, tags=tags, featured_image=image)
    assert queries() == few <= 7
