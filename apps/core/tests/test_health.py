"""GET /api/health with each dependency down: 503, the failing check named, the others ok.
GET /api/health/live and /api/health/ready (the probes): live answers whatever is down; ready
answers 200 while the database does, "degraded" when Redis or the broker does not, and 503 with
Retry-After when the database does not; both on every host and in every web pool."""
import socket
from contextlib import contextmanager
from pathlib import Path

import pytest
import yaml
from django.conf import settings
from django.db import connection
from django.test import Client, override_settings

from apps.core import testing


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def health(root_api):
    response = root_api.get("/api/health")
    return response.status_code, {name: check["status"] for name, check in response.json()["checks"].items()}


def test_all_up(root_api, db):
    assert health(root_api) == (200, {"database": "ok", "redis": "ok", "broker": "ok", "storage": "ok"})


def test_redis_down(root_api, db):
    with override_settings(REDIS_URL=f"redis://127.0.0.1:{closed_port()}/0"):
        status, checks = health(root_api)
    assert status == 503
    assert checks["redis"] == "down" and checks["database"] == "ok" and checks["storage"] == "ok"


def test_broker_down(root_api, db):
    with override_settings(CELERY_BROKER_URL=f"redis://127.0.0.1:{closed_port()}/0"):
        status, checks = health(root_api)
    assert status == 503
    assert checks["broker"] == "down" and checks["redis"] == "ok"


def test_a_redis_broker_is_checked_without_kombu(root_api, db, monkeypatch):
    """A web worker answers the probe without loading Celery's transport library: with kombu not
    importable the Redis broker is still checked, up and down."""
    import sys

    monkeypatch.setitem(sys.modules, "kombu", None)  # `import kombu` raises ImportError
    assert health(root_api)[1]["broker"] == "ok"
    with override_settings(CELERY_BROKER_URL=f"redis://127.0.0.1:{closed_port()}/0"):
        assert health(root_api)[1]["broker"] == "down"


def test_storage_down(root_api, db, settings):
    s3 = {"BACKEND": "storages.backends.s3.S3Storage",
          "OPTIONS": {"bucket_name": "media", "endpoint_url": f"http://127.0.0.1:{closed_port()}",
                      "access_key": "key", "secret_key": "secret", "region_name": "us-east-1"}}
    alias = getattr(settings, "MEDIA_STORAGE_ALIAS", "default")
    with override_settings(STORAGES={**settings.STORAGES, "default": s3, alias: s3}, HEALTH_CHECK_TIMEOUT=1.0):
        status, checks = health(root_api)
    assert status == 503
    assert checks["storage"] == "down" and checks["database"] == "ok"


@pytest.mark.django_db(transaction=True)
def test_database_down(root_api):
    connection.close()
    original = connection.settings_dict["PORT"]
    connection.settings_dict["PORT"] = closed_port()
    try:
        status, checks = health(root_api)
    finally:
        connection.close()
        connection.settings_dict["PORT"] = original
    assert status == 503
    assert checks["database"] == "down" and checks["redis"] == "ok"
    assert health(root_api)[0] == 200  # and it recovers without a restart


# --- who sees the per-dependency detail ----------------------------------------------------------

OUTSIDE = {"REMOTE_ADDR": "203.0.113.5"}
SUMMARY_KEYS = {"success", "status"}


def test_anonymous_callers_get_only_the_overall_status(root_api, api, db):
    for client in (root_api, api):  # the root domain and a company's host
        response = client.get("/api/health", **OUTSIDE)
        assert response.status_code == 200
        assert response.json() == {"success": True, "status": "ok"}


def test_anonymous_callers_see_a_failure_but_not_which_dependency(root_api, db):
    with override_settings(REDIS_URL=f"redis://127.0.0.1:{closed_port()}/0"):
        response = root_api.get("/api/health", **OUTSIDE)
    assert response.status_code == 503
    assert response.json() == {"success": False, "status": "degraded"}


@override_settings(HEALTH_DETAIL_TOKEN="operator-token-123456")
def test_the_operator_token_shows_the_detail(root_api, db):
    for headers in ({"Authorization": "Bearer operator-token-123456"}, {"X-Health-Token": "operator-token-123456"}):
        response = root_api.get("/api/health", headers=headers, **OUTSIDE)
        assert set(response.json()["checks"]) == {"database", "redis", "broker", "storage"}, headers
    for headers in ({"Authorization": "Bearer operator-token-12345"}, {"X-Health-Token": "wrong"},
                    {"Authorization": "operator-token-123456"}, {}):
        response = root_api.get("/api/health", headers=headers, **OUTSIDE)
        assert response.status_code == 200 and set(response.json()) == SUMMARY_KEYS, headers


def test_no_token_is_accepted_when_none_is_configured(root_api, db, settings):
    settings.HEALTH_DETAIL_TOKEN = ""
    for headers in ({"Authorization": "Bearer "}, {"X-Health-Token": ""}, {"Authorization": "Bearer x"}):
        assert set(root_api.get("/api/health", headers=headers, **OUTSIDE).json()) == SUMMARY_KEYS


def test_trusted_networks_see_the_detail(root_api, db, settings):
    assert "checks" in root_api.get("/api/health", REMOTE_ADDR="127.0.0.1").json()  # loopback by default
    assert "checks" in root_api.get("/api/health", REMOTE_ADDR="::1").json()
    settings.HEALTH_DETAIL_NETWORKS = "10.0.0.0/8, fd00::/8"
    assert "checks" in root_api.get("/api/health", REMOTE_ADDR="10.42.0.7").json()
    assert "checks" in root_api.get("/api/health", REMOTE_ADDR="fd00::5").json()
    assert set(root_api.get("/api/health", REMOTE_ADDR="127.0.0.1").json()) == SUMMARY_KEYS
    assert set(root_api.get("/api/health", REMOTE_ADDR="11.0.0.1").json()) == SUMMARY_KEYS


def test_behind_a_trusted_proxy_the_client_address_decides(root_api, db, settings):
    """A proxy on loopback forwarding an outside caller must not hand it the detail."""
    settings.TRUSTED_PROXY_COUNT = 1
    outside = root_api.get("/api/health", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.5")
    assert set(outside.json()) == SUMMARY_KEYS
    inside = root_api.get("/api/health", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="127.0.0.1")
    assert "checks" in inside.json()


def test_the_summary_is_documented(root_api, db):
    schema = root_api.get("/api/openapi.json").json()["components"]["schemas"]["HealthOut"]
    assert set(schema["required"]) == SUMMARY_KEYS


# --- liveness and readiness ----------------------------------------------------------------------

def _hosts(tenant):
    """Callers from outside (no detail) on the root domain, a company's host and an unknown host."""
    unknown = testing.Api(None)
    unknown.http = Client(HTTP_HOST=f"nobody.{settings.ROOT_DOMAIN}")
    return {"root": testing.Api(None), "company": testing.Api(tenant), "unknown": unknown}


@contextmanager
def database_down():
    connection.close()
    original = connection.settings_dict["PORT"]
    connection.settings_dict["PORT"] = closed_port()
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict["PORT"] = original


def test_ready_with_everything_up(root_api, db):
    response = root_api.get("/api/health/ready")
    assert response.status_code == 200
    assert response.json() == {"success": True, "status": "ok", "checks": {
        "database": {"status": "ok", "ms": response.json()["checks"]["database"]["ms"]},
        "redis": {"status": "ok", "ms": response.json()["checks"]["redis"]["ms"]},
        "broker": {"status": "ok", "ms": response.json()["checks"]["broker"]["ms"]}}}


def test_redis_and_the_broker_down_leave_the_process_ready_but_degraded(tenant, root_api):
    """Without Redis the API serves every request (uncached): the readiness probe must not take the
    process out of service. /api/health still reports the outage (503) to monitors."""
    down = f"redis://127.0.0.1:{closed_port()}/0"
    with override_settings(REDIS_URL=down, CELERY_BROKER_URL=down):
        for name, client in _hosts(tenant).items():
            response = client.get("/api/health/ready", **OUTSIDE)
            assert (response.status_code, response.json()) == (200, {"success": True, "status": "degraded"}), name
            assert "Retry-After" not in response
        detail = root_api.get("/api/health/ready").json()["checks"]
        assert [detail[name]["status"] for name in ("database", "redis", "broker")] == ["ok", "down", "down"]
        assert root_api.get("/api/health").status_code == 503
        assert root_api.get("/api/health/live").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_the_database_down_makes_the_process_unready_but_alive(make_tenant):
    tenant = make_tenant()
    hosts = _hosts(tenant)
    with database_down():
        for name, client in hosts.items():
            response = client.get("/api/health/ready", **OUTSIDE)
            assert response.status_code == 503, (name, response.content)
            assert response.json() == {"success": False, "status": "unavailable"}, name
            assert response["Retry-After"] == "5"
            live = client.get("/api/health/live", **OUTSIDE)
            assert (live.status_code, live.json()) == (200, {"success": True, "status": "ok"}), name
        detail = testing.Api(None).get("/api/health/ready").json()["checks"]
        assert detail["database"]["status"] == "down" and detail["redis"]["status"] == "ok"
    assert hosts["company"].get("/api/health/ready").status_code == 200  # and it recovers without a restart


def test_live_and_ready_are_answered_by_a_content_process(tenant, db, settings):
    settings.ROOT_URLCONF = settings.PUBLIC_SCHEMA_URLCONF = "config.urls_content"
    for name, client in _hosts(tenant).items():
        for path in ("/api/health/live", "/api/health/ready", "/api/health/live/"):
            response = client.get(path, **OUTSIDE)
            assert (response.status_code, response.json()["status"]) == (200, "ok"), (name, path)


def test_the_probes_are_documented(root_api, db):
    document = root_api.get("/api/openapi.json").json()
    assert set(document["paths"]) >= {"/api/health", "/api/health/live", "/api/health/ready"}
    ready = document["paths"]["/api/health/ready"]["get"]["responses"]
    assert {"200", "503"} <= set(ready)
    schema = document["components"]["schemas"]["HealthReadyOut"]
    assert set(schema["required"]) == SUMMARY_KEYS
    assert schema["properties"]["status"]["enum"] == ["ok", "degraded", "unavailable"]


def test_the_deployments_probe_live_and_ready():
    """Kubernetes restarts a web process only when it does not answer, and takes it out of service
    only when the database does not: a Redis outage the API serves through changes neither. The
    Compose healthchecks wait for a process that can serve."""
    root = Path(__file__).resolve().parents[3]
    pools = [doc["spec"]["template"]["spec"]["containers"][0]
             for doc in yaml.safe_load_all((root / "deploy/k8s/30-web.yaml").read_text())
             if doc and doc["kind"] == "Deployment"]
    assert len(pools) == 2  # every route, and the content pool
    for container in pools:
        assert container["readinessProbe"]["httpGet"]["path"] == "/api/health/ready", container["name"]
        assert container["livenessProbe"]["httpGet"]["path"] == "/api/health/live", container["name"]
    compose = yaml.safe_load((root / "docker-compose.yml").read_text())["services"]
    for name in ("web", "content", "nginx"):
        assert "/api/health/ready" in " ".join(compose[name]["healthcheck"]["test"]), name


def test_the_probes_are_answered_over_plain_http_when_https_is_enforced(tenant, db):
    """Probes call the pods directly, without TLS: the health routes are not redirected."""
    with override_settings(SECURE_SSL_REDIRECT=True):
        client = testing.Api(tenant)
        for path in ("/api/health", "/api/health/live", "/api/health/ready", "/api/health/ready/"):
            assert client.get(path, **OUTSIDE).status_code == 200, path
        assert client.get("/api/posts", **OUTSIDE).status_code == 301


# --- served without django-ninja, answering as its operations do ----------------------------------

def _ninja_only_urlconf(monkeypatch):
    """A URL conf in which the health paths reach the root API's ninja operations (the ones its
    OpenAPI document describes), for the comparison below."""
    import sys
    import types

    from django.urls import path

    from config.api import root_api

    module = types.ModuleType("health_through_ninja_urls")
    module.urlpatterns = [path("api/", root_api.urls)]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    return module.__name__


def _reply(response) -> tuple:
    headers = {name: value for name, value in response.headers.items() if name.lower() not in ("date", "x-request-id")}
    body = response.content
    if b'"ms": ' in body:  # a check's duration differs from one request to the next
        import re

        body = re.sub(rb'"ms": [0-9.]+', b'"ms": 0', body)
        headers.pop("Content-Length", None)
    return response.status_code, headers, body


def test_the_health_routes_answer_as_the_ninja_operations_do(tenant, db, settings, monkeypatch):
    """The views (apps.core.health.urlpatterns) and the operations of the APIs' documents give the same
    status, headers and bytes: summary and detail, each route, wrong methods, a NUL character, a
    dependency down."""
    hosts = _hosts(tenant)
    requests = [(method, path, extra) for path in ("/api/health", "/api/health/live", "/api/health/ready",
                                                   "/api/health/ready/", "/api/health?x=%00")
                for method in ("get", "post", "head") for extra in (OUTSIDE, {"REMOTE_ADDR": "127.0.0.1"})]

    def replies():
        return [_reply(getattr(client.http, method)(path, **extra))
                for client in hosts.values() for method, path, extra in requests]

    down = f"redis://127.0.0.1:{closed_port()}/0"
    served = replies()
    with override_settings(REDIS_URL=down, CELERY_BROKER_URL=down):
        served_down = replies()
    settings.PUBLIC_SCHEMA_URLCONF = _ninja_only_urlconf(monkeypatch)  # where the health paths are routed
    assert replies() == served
    with override_settings(REDIS_URL=down, CELERY_BROKER_URL=down):
        assert replies() == served_down
    assert {status for status, _, _ in served + served_down} == {200, 400, 405, 503}


def test_no_web_process_answers_the_health_routes_through_django_ninja():
    """A probe reaches every worker every few seconds; through ninja it would touch 3 MB of
    pydantic-core's pages in a content worker that serves its reads without them."""
    from django.urls import resolve

    from apps.core import health

    views = {"/api/health": health.health_view, "/api/health/live": health.live_view,
             "/api/health/ready": health.ready_view}
    for urlconf in ("config.urls_public", "config.urls_content"):
        for path, view in views.items():
            assert resolve(path, urlconf=urlconf).func is view, (urlconf, path)
