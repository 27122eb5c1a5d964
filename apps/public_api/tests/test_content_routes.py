"""A content web process (WEB_ROUTES=content: config.urls_content, a pool of lean workers for the
websites' reads) answers the public content API exactly as a process with every route does, and
the health check; every other path gets the API's 404, and its workers never load the dashboard's
routes or what only they need."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from apps.content.tests.conftest import make_category
from apps.content.tests.factories import make_post
from apps.core.testing import Api
from apps.public_api.tests.conftest import key_client

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[3]

READS = ["/api/v1/posts", "/api/v1/posts?search=hello&limit=2", "/api/v1/posts?search=he", "/api/v1/posts/slug/hello",
         "/api/v1/posts/category/news", "/api/v1/posts/category/none", "/api/v1/categories", "/api/v1/tags",
         "/api/v1/posts/slug/missing", "/api/v1/posts?page=0", "/api/v1/posts?status=draft", "/api/v1/nope",
         "/api/v1/preview/forged"]


def _replies(tenant) -> list:
    replies = []
    for key in (tenant.api_key, tenant.preview_key, "wrong", None):
        client = key_client(tenant, key)
        for path in READS:
            response = client.get(path)
            replies.append((key, path, response.status_code, response.content))
    return replies


TRACK = "/api/v1/analytics/track"
ORIGIN = {"Origin": "https://www.company.example"}


def _writes(tenant) -> list:
    """What a website's browser sends besides reads: page views (valid, invalid, wrong key) and the
    CORS preflight before them; each reply with its CORS headers."""
    replies = []
    for key, body in ((tenant.api_key, {"pageUrl": "https://www.company.example/a", "postSlug": "hello"}),
                      (tenant.api_key, {"referrer": "no page"}), ("wrong", {"pageUrl": "https://x.example/"})):
        response = key_client(tenant, key).post(TRACK, body, headers=ORIGIN)
        replies.append((key, response.status_code, response.content, response.headers.get("Access-Control-Allow-Origin")))
    preflight = key_client(tenant).http.options(TRACK, headers={**ORIGIN, "Access-Control-Request-Method": "POST",
                                                                "Access-Control-Request-Headers": "content-type,x-api-key"})
    replies.append(("preflight", preflight.status_code, preflight.headers.get("Access-Control-Allow-Methods"),
                    preflight.headers.get("Access-Control-Allow-Headers")))
    return replies


def _content_routes(settings) -> None:
    settings.ROOT_URLCONF = settings.PUBLIC_SCHEMA_URLCONF = "config.urls_content"  # Django clears its URL caches


def test_a_content_process_answers_the_public_api_as_every_route_does(tenant, settings):
    news = make_category(tenant, "News", "news")
    make_post(tenant, "Hello world", slug="hello", status="published", categories=[news])
    make_post(tenant, "Hello draft", slug="draft", status="draft")
    settings.PUBLIC_API_CACHE = False  # each reply built by the routes of the process asked
    every_route, every_route_writes = _replies(tenant), _writes(tenant)
    _content_routes(settings)
    assert _replies(tenant) == every_route
    assert _writes(tenant) == every_route_writes
    statuses = {status for _, _, status, _ in every_route}
    assert {200, 400, 401, 403, 404} <= statuses  # the reads and every error of the contract
    assert [reply[1] for reply in every_route_writes] == [200, 400, 401, 200]  # tracked, refused, key, preflight
    assert every_route_writes[0][3] == "*" and "POST" in every_route_writes[-1][2]  # CORS on both


def test_a_content_process_answers_its_health_and_nothing_else(tenant, api, settings):
    _content_routes(settings)
    assert Api(tenant).get("/api/health").status_code == 200
    assert Api(None).get("/api/health").status_code == 200  # the root domain's too (load balancer checks)
    for client, path in ((api, "/api/posts"), (api, "/api/auth/me"), (Api(tenant), "/login"),
                      (Api(None), "/api/auth/register-client"), (Api(None), "/"), (Api(tenant), "/api/openapi.json")):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.json() == {"success": False, "message": "Endpoint not found", "error": "not_found"}


SCRIPT = """
import importlib, sys
import apps.public_api.wsgi
from django.conf import settings
for urlconf in (settings.ROOT_URLCONF, settings.PUBLIC_SCHEMA_URLCONF):
    importlib.import_module(urlconf)
dashboard_only = ("config.api", "jwt", "argon2", "apps.accounts.services", "apps.accounts.api", "apps.content.services",
                  "apps.content.api", "apps.ai.api", "apps.media.api", "lifecycle.services", "nh3", "pyotp",
                  # the dashboard's schemas (their validators are megabytes): the public shapes are apart
                  "apps.content.schemas", "apps.analytics.api", "apps.analytics.schemas", "apps.members.schemas",
                  "apps.site.schemas", "apps.core.health_api")
print(settings.ROOT_URLCONF, sorted(name for name in dashboard_only if name in sys.modules))
"""


def test_a_content_process_does_not_load_the_dashboard():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
           "DJANGO_SETTINGS_MODULE": "config.settings_test", "WEB_ROUTES": "content"}
    result = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().splitlines()[-1] == "config.urls_content []"
    refused = subprocess.run([sys.executable, "-c", "import django; django.setup()"], cwd=ROOT,
                             env={**env, "WEB_ROUTES": "dashboard"}, capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and "WEB_ROUTES must be all or content" in refused.stderr
