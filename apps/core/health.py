"""GET /api/health: does each dependency answer? Every check has a short timeout and reports
only its state (and the exception's class), never a trace or a secret.

Anyone gets the overall status (200 ok / 503 degraded: what probes and load balancers read). The
per-dependency detail tells an attacker what the company runs and what is down, so it goes only to
an operator: a caller sending HEALTH_DETAIL_TOKEN (`Authorization: Bearer <token>` or
`X-Health-Token`, compared in constant time), or a caller whose address (apps.core.ratelimit.
client_ip: X-Forwarded-For only behind TRUSTED_PROXY_COUNT proxies) is in HEALTH_DETAIL_NETWORKS.
"""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

import redis
from django.conf import settings
from django.db import connection, connections
from ninja import Router

from apps.core.content_version import redis_client
from apps.core.permissions import PUBLIC, requires
from apps.core.operator_access import operator_caller
from apps.core.schemas import ErrorOut, HealthOut

router = Router(tags=["health"])
_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="health")


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL statement_timeout = %s", [int(settings.HEALTH_CHECK_TIMEOUT * 1000)])
        cursor.execute("SELECT 1")


def _redis() -> None:
    redis_client().ping()


_REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


def _broker() -> None:
    """The Celery broker answers. A Redis broker (the stack's) is sent a PING with the redis client
    the process has loaded already: what kombu's connection check does on Redis, without kombu,
    amqp and billiard in every web worker a probe reaches (5.5 MB each). Other brokers: kombu."""
    url = settings.CELERY_BROKER_URL
    if url.startswith(_REDIS_SCHEMES):
        timeout = settings.HEALTH_CHECK_TIMEOUT
        client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
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


def _run(name: str, fn) -> dict:
    started = time.perf_counter()
    try:
        if name == "database":  # Django connections belong to the request's thread
            fn()
        else:
            _pool.submit(fn).result(timeout=settings.HEALTH_CHECK_TIMEOUT)
        return {"status": "ok", "ms": round((time.perf_counter() - started) * 1000, 1)}
    except FutureTimeout:
        return {"status": "down", "error": "Timeout"}
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        return {"status": "down", "error": exc.__class__.__name__}


def may_see_detail(request) -> bool:
    return operator_caller(request, token=settings.HEALTH_DETAIL_TOKEN, networks=settings.HEALTH_DETAIL_NETWORKS)


# 503: the checks' report; or the error envelope when the database is down on a tenant host (the
# company cannot be looked up before the checks run).
@router.get("/health", auth=None, response={200: HealthOut, 503: HealthOut | ErrorOut})
@requires(PUBLIC)
def health(request):
    checks = {name: _run(name, fn) for name, fn in CHECKS.items()}
    healthy = all(check["status"] == "ok" for check in checks.values())
    body = {"success": healthy, "status": "ok" if healthy else "degraded"}
    if may_see_detail(request):
        body["checks"] = checks
    return (200 if healthy else 503), body
