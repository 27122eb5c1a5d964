"""GET /api/health: is each dependency answering? Short timeouts, never a trace."""
from __future__ import annotations

import time

from django.db import connection
from ninja import Router

router = Router(tags=["health"])


def _check(fn) -> dict:
    started = time.perf_counter()
    try:
        fn()
        return {"status": "ok", "ms": round((time.perf_counter() - started) * 1000, 1)}
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        return {"status": "down", "error": exc.__class__.__name__}


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def _redis() -> None:
    from django.core.cache import cache

    cache.get("health-probe")


@router.get("/health", auth=None, response={200: dict, 503: dict})
def health(request):
    checks = {"database": _check(_database), "redis": _check(_redis)}
    healthy = all(check["status"] == "ok" for check in checks.values())
    return (200 if healthy else 503), {"success": healthy, "status": "ok" if healthy else "degraded", "checks": checks}
