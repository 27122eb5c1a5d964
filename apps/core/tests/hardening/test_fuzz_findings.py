"""What the schemathesis suites found, each pinned by a plain test."""
from __future__ import annotations

import pytest
from django_tenants.utils import schema_context

from apps.content.models import Category
from apps.core.testing import Api
from apps.core.tests.hardening.helpers import production_wsgi_app, seed_tenant, wsgi_call

SECURITY_HEADERS = ("content-security-policy", "x-content-type-options", "referrer-policy", "x-frame-options",
                    "cross-origin-opener-policy")


@pytest.fixture
def seeded(db):
    from apps.analytics import redis_conn

    redis_conn.reset()
    return seed_tenant()


def test_non_object_json_bodies_are_refused_and_change_nothing(seeded):
    client = Api(seeded.tenant, headers=seeded.bearer())
    path = f"/api/categories/{seeded.ids['category_id']}"
    for body in ('"AAA"', "[]", "[{\"name\": \"Renamed\"}]", "12", "null"):
        response = client.put(path, body, content_type="application/json")
        assert response.status_code == 400, body
        assert response.json() == {"success": False, "message": "Request body must be a JSON object",
                                   "error": "validation_error"}
    broken = client.put(path, "{not json", content_type="application/json")
    assert broken.status_code == 400 and broken.json()["message"] == "Request body is not valid JSON"
    with schema_context(seeded.tenant.schema_name):
        category = Category.objects.get(pk=seeded.ids["category_id"])
        assert category.name.startswith("Category ")
    # An object still works.
    assert client.put(path, {"name": "Renamed", "slug": "renamed"}).status_code == 200


def test_boolean_parameters_get_a_readable_message(seeded):
    client = Api(seeded.tenant, headers=seeded.bearer())
    response = client.post("/api/ai/generate-seo?async=maybe", {"title": "A title"})
    assert response.status_code == 400
    assert response.json()["message"] == "Async must be true or false"
    response = client.post("/api/posts", {"postTitle": "T", "allowIndexing": "perhaps"})
    assert response.status_code == 400
    assert {"field": "allowIndexing", "message": "Allow indexing must be true or false"} in response.json()["errors"]
