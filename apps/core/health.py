"""Health of a web process, as three questions (served on every host, by every web pool):

- GET /api/health/live, liveness: the process answers. No dependency is asked (not even the
  company of the host: apps.core.health paths skip that lookup), since restarting a web process
  brings back no database and no Redis. Always 200. What Kubernetes' liveness probe reads.
- GET /api/health/ready, readiness: the process can serve. The database decides: it answers, 200;
  it does not, 503 with Retry-After (take the process out of the load balancer until it does).
  Redis and the broker are accelerators (apps.core.redis_conn: without them every request is
  still served, uncached, unthrottled, page views straight to PostgreSQL, outgoing work waiting in
  the outbox): down, they make the status "degraded", still 200. What the readiness probes and the
  Compose healthchecks read.
- GET /api/health, the report for monitors (and the clients that read it before the two above
  existed; its meaning is unchanged): the database, Redis, the broker and the media storage; 200
  "ok" when every one answers, else 503 "degraded". Not a probe: a Redis outage the API serves
  through would take every web process out of service.

Every check has a short timeout (HEALTH_CHECK_TIMEOUT; the checks of one request run at the same
time) and reports only its state (and the exception's class), never a trace or a secret.

Anyone gets the overall status. The per-dependency detail tells an attacker what the company runs
and what is down, so it goes only to an operator: a caller sending HEALTH_DETAIL_TOKEN
(`Authorization: Bearer <token>` or `X-Health-Token`, compared in constant time), or a caller whose
address (apps.core.ratelimit.client_ip: X-Forwarded-For only behind TRUSTED_PROXY_COUNT proxies) is
in HEALTH_DETAIL_NETWORKS.

The routes are served by plain Django views (`urlpatterns`, which config.urls_public and
config.urls_content list before the APIs): a probe reaches every worker every few seconds, and answering
it through django-ninja runs pydantic-core's validation and serialisation, whose code pages (3.2 MB
of its library) a content worker otherwise touches little or not at all (docs/performance.md). The
ninja router of apps.core.health_api declares the same three operations for the APIs' OpenAPI
documents and their route declarations, and answers exactly as the views do (both build their
replies here); the views answer as ninja would around them: 405 for a method other than GET, 400
for a NUL character.
"""
from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import NamedTuple

from django.conf import settings
from django.db import connection, connections
from django.http import HttpResponse, HttpResponseNotAllowed
from django.urls import path

from apps.core import redis_conn
from apps.core.api import error_response, request_has_nul
from apps.core.errors import ValidationFailed
from apps.core.middleware import DATABASE_RETRY_AFTER
from apps.core.operator_access import operator_caller
from apps.core.validation import NUL_MESSAGE

_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="health")

PATHS = frozenset({"/api/health", "/api/health/live", "/api/health/ready"})


def is_health_path(path: str) -> bool:
    """A request for one of the health routes (it needs no company: the host's is not looked up)."""
    return path.rstrip("/") in PATHS


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL statement_timeout = %s", [int(settings.HEALTH_CHECK_TIMEOUT * 1000)])
        cursor.execute("SELECT 1")


def _redis() -> None:
    redis_conn.client().ping()


def _broker() -> None:
    """The Celery broker answers. A Redis broker (the stack's) is sent a PING with the redis client
    the process has loaded already: what kombu's connection check does on Redis, without kombu,
    amqp and billiard in every web worker a probe reaches (5.5 MB each). Other brokers: kombu."""
    client = redis_conn.broker_client(settings.HEALTH_CHECK_TIMEOUT)  # Redis, or its sentinels' primary
    if client is not None:
        try:
            client.ping()
        finally:
            client.close()
        return
    from kombu import Connection

    with Connection(settings.CELERY_BROKER_URL, connect_timeout=settings.HEALTH_CHECK_TIMEOUT) as broker:
        broker.ensure_connection(max_retries=1, timeout=settings.HEALTH_CHECK_TIMEOUT)


def _storage() -> None:
    from django.core.files.storage import storages

    alias = getattr(settings, "MEDIA_STORAGE_ALIAS", "default")
    try:
        storage = storages[alias]
    except Exception:  # noqa: BLE001 - alias not configured: the default storage
        storage = storages["default"]
    try:
        storage.exists("health/probe")
    finally:
        connections.close_all()  # the check runs in a pool thread


CHECKS = {"database": _database, "redis": _redis, "broker": _broker, "storage": _storage}
READY_CHECKS = ("database", "redis", "broker")  # the database decides; the others make it "degraded"


def _timed(fn) -> float:
    started = time.perf_counter()
    fn()
    return round((time.perf_counter() - started) * 1000, 1)


def _outcome(answer) -> dict:
    try:
        return {"status": "ok", "ms": answer()}
    except FutureTimeout:
        return {"status": "down", "error": "Timeout"}
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        return {"status": "down", "error": exc.__class__.__name__}


def _checks(names) -> dict[str, dict]:
    """Each named check's outcome; they run at the same time, each within HEALTH_CHECK_TIMEOUT
    (the database's in the request's thread: Django connections belong to their thread)."""
    deadline = time.monotonic() + settings.HEALTH_CHECK_TIMEOUT
    running = {name: _pool.submit(_timed, CHECKS[name]) for name in names if name != "database"}
    done = {"database": _outcome(lambda: _timed(_database))} if "database" in names else {}
    for name, future in running.items():
        done[name] = _outcome(lambda future=future: future.result(timeout=max(0.0, deadline - time.monotonic())))
    return {name: done[name] for name in names}


def may_see_detail(request) -> bool:
    return operator_caller(request, token=settings.HEALTH_DETAIL_TOKEN, networks=settings.HEALTH_DETAIL_NETWORKS)


class Reply(NamedTuple):
    status: int
    body: dict
    headers: dict[str, str]


def live_reply(request) -> Reply:
    return Reply(200, {"success": True, "status": "ok"}, {})


def ready_reply(request) -> Reply:
    checks = _checks(READY_CHECKS)
    serving = checks["database"]["status"] == "ok"
    healthy = all(check["status"] == "ok" for check in checks.values())
    body = {"success": serving, "status": "ok" if healthy else "degraded" if serving else "unavailable"}
    if may_see_detail(request):
        body["checks"] = checks
    return Reply(200 if serving else 503, body, {} if serving else {"Retry-After": DATABASE_RETRY_AFTER})


def health_reply(request) -> Reply:
    checks = _checks(CHECKS)
    healthy = all(check["status"] == "ok" for check in checks.values())
    body = {"success": healthy, "status": "ok" if healthy else "degraded"}
    if may_see_detail(request):
        body["checks"] = checks
    return Reply(200 if healthy else 503, body, {})


# --- the views that serve them -------------------------------------------------------------------
JSON = "application/json; charset=utf-8"  # as django-ninja's renderer sends it


def _view(answer):
    def view(request):
        if request.method != "GET":  # what ninja answers (the envelope middleware makes it the envelope)
            return HttpResponseNotAllowed(["GET"], content=b"Method not allowed")
        if request_has_nul(request):  # as apps.core.api.Api checks before any operation's input is read
            return error_response(ValidationFailed(NUL_MESSAGE))
        reply = answer(request)
        # The bytes ninja's renderer writes (json.dumps, default separators) for the same body: the
        # bodies are built in their schemas' key order (apps.core.schemas.Health*Out).
        response = HttpResponse(json.dumps(reply.body), status=reply.status, content_type=JSON)
        for name, value in reply.headers.items():
            response[name] = value
        return response

    view.csrf_exempt = True
    view.__name__ = view.__qualname__ = answer.__name__.replace("_reply", "_view")
    return view


live_view = _view(live_reply)
ready_view = _view(ready_reply)
health_view = _view(health_reply)
# Before the APIs in a URL conf (the paths are the APIs', which declare the same operations).
urlpatterns = [path("api/health", health_view), path("api/health/live", live_view),
               path("api/health/ready", ready_view)]
