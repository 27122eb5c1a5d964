"""The health routes (apps.core.health) as operations of the dashboard's and the root domain's APIs
(config.api), for their OpenAPI documents and route declarations: they answer exactly as the views
that serve the routes (both build their replies in apps.core.health). A content web process does not
import this module."""
from __future__ import annotations

from typing import Literal

from django.http import HttpResponse
from ninja import Router

from apps.core.health import health_reply, live_reply, ready_reply
from apps.core.permissions import PUBLIC, requires
from apps.core.schemas import ErrorOut, OutSchema, omitted

router = Router(tags=["health"])


class HealthCheckOut(OutSchema):
    status: Literal["ok", "down"]
    ms: float = omitted(description="Duration of the check (when it answered)")
    error: str = omitted(description="The exception's class (when it did not)")


class HealthChecksOut(OutSchema):
    database: HealthCheckOut
    redis: HealthCheckOut
    broker: HealthCheckOut
    storage: HealthCheckOut


class HealthOut(OutSchema):
    """GET /api/health: 200 when every check answered, else 503 with the same body. `checks` only
    for an operator (HEALTH_DETAIL_TOKEN or an address in HEALTH_DETAIL_NETWORKS)."""

    success: bool
    status: Literal["ok", "degraded"]
    checks: HealthChecksOut = omitted(description="Each dependency's check (operators only)")


class HealthLiveOut(OutSchema):
    """GET /api/health/live: the process answers (no dependency is asked), always 200."""

    success: Literal[True] = True
    status: Literal["ok"] = "ok"


class HealthReadyChecksOut(OutSchema):
    database: HealthCheckOut
    redis: HealthCheckOut
    broker: HealthCheckOut


class HealthReadyOut(OutSchema):
    """GET /api/health/ready: 200 while the database answers ("ok"; "degraded" when Redis or the
    broker does not, and every request is still served), else 503 "unavailable" with Retry-After.
    `checks` only for an operator, as /api/health's."""

    success: bool
    status: Literal["ok", "degraded", "unavailable"]
    checks: HealthReadyChecksOut = omitted(description="Each dependency's check (operators only)")


# The operation ids are the ones these operations had in apps.core.health (the SDKs' names).
@router.get("/health/live", auth=None, response=HealthLiveOut, operation_id="apps_core_health_live")
@requires(PUBLIC)
def live(request):
    return HealthLiveOut(**live_reply(request).body)


@router.get("/health/ready", auth=None, response={200: HealthReadyOut, 503: HealthReadyOut},
            operation_id="apps_core_health_ready")
@requires(PUBLIC)
def ready(request, response: HttpResponse):
    reply = ready_reply(request)
    for name, value in reply.headers.items():
        response[name] = value
    return reply.status, reply.body


# 503: the checks' report (the contract names the error envelope too, as for every route of the
# APIs; the health routes look no company up, so a database outage answers with the report).
@router.get("/health", auth=None, response={200: HealthOut, 503: HealthOut | ErrorOut},
            operation_id="apps_core_health_health")
@requires(PUBLIC)
def health(request):
    reply = health_reply(request)
    return reply.status, reply.body
