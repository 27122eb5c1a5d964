"""JSON bodies above their limit get 413 from their declared length, before they are read or
parsed; a post's HTML may be larger than other bodies."""
from __future__ import annotations

import json

import pytest

from apps.content.tests.conftest import make_category, make_media, post_payload
from apps.core import api as core_api
from apps.core.testing import Api


@pytest.fixture
def parse_calls(monkeypatch):
    calls = []
    original = core_api.JsonObjectParser.parse_body

    def spy(self, request):
        calls.append(request.path)
        return original(self, request)

    monkeypatch.setattr(core_api.JsonObjectParser, "parse_body", spy)
    return calls


def test_a_9_mb_body_of_empty_lists_gets_413_without_being_parsed(api, parse_calls):
    body = json.dumps({"name": "x", "slug": "x", "extra": [[] for _ in range(2_300_000)]})
    assert len(body) > 9_000_000
    response = api.post("/api/tags/add", body, content_type="application/json")
    assert response.status_code == 413
    assert response.json() == {"success": False, "message": "Request body too large. Maximum size is 1 MB",
                               "error": "payload_too_large"}
    assert parse_calls == []
    assert api.get("/api/tags").json()["total"] == 0


def test_a_body_under_the_limit_is_read_as_before(api, parse_calls):
    body = json.dumps({"name": "Travel", "slug": "travel", "padding": "x" * 900_000})
    response = api.post("/api/tags/add", body, content_type="application/json")
    assert response.status_code == 201, response.json()
    assert parse_calls == ["/api/tags/add"]


def test_a_post_may_carry_more_html_than_other_bodies(api, tenant, settings):
    html = "<p>" + "word " * 400_000 + "</p>"  # 2 MB of text
    payload = post_payload(make_category(tenant), make_media(tenant), postContent=html)
    created = api.post("/api/posts/upload", payload)
    assert created.status_code == 201, created.json()
    post_id = created.json()["post"]["id"]
    assert api.put(f"/api/posts/{post_id}", {"content": html + "<p>more</p>"}).status_code == 200
    too_long = "<p>" + "word " * 1_100_000 + "</p>"  # 5.5 MB
    response = api.put(f"/api/posts/{post_id}", {"content": too_long})
    assert response.status_code == 413
    assert response.json()["message"] == "Request body too large. Maximum size is 5 MB"
    settings.POST_BODY_MAX_BYTES = 512 * 1024
    response = api.post("/api/posts/upload", {**payload, "postTitle": "Long read 2"})
    assert response.status_code == 413
    assert response.json()["message"] == "Request body too large. Maximum size is 512 KB"


def test_the_limit_holds_on_the_root_domain_and_the_public_api(root_api, tenant):
    body = json.dumps({"companyName": "x" * 2_000_000})
    assert root_api.post("/api/auth/register-client", body, content_type="application/json").status_code == 413
    track = Api(tenant, headers={"x-api-key": tenant.api_key})
    body = json.dumps({"pageUrl": "https://example.com/", "referrer": "r" * 1_100_000})
    assert track.post("/api/v1/analytics/track", body, content_type="application/json").status_code == 413


def test_deeply_nested_json_under_the_limit_is_a_400_not_a_500(api):
    body = '{"name": ' + "[" * 200_000 + "]" * 200_000 + "}"
    response = api.post("/api/tags/add", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"] == "validation_error"
