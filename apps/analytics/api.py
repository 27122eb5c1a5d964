"""Dashboard API of analytics (docs/analytics.md): POST analytics/track, GET analytics/page-views,
GET dashboard/stats. The websites' tracking endpoint is in apps/public_api."""
from __future__ import annotations

from ninja import Router

from apps.analytics import selectors, services
from apps.analytics.privacy import clean_ip
from apps.analytics.schemas import DashboardStatsOut, PageViewsOut, TrackIn, TrackOut, clean_days, clean_group_by
from apps.core.permissions import SIGNED_IN, requires
from apps.core.ratelimit import client_ip

analytics_router = Router(tags=["analytics"])
dashboard_router = Router(tags=["dashboard"])

STATS_DENIED = "You don't have permission to view statistics"


def track_fields(request, payload: TrackIn) -> dict:
    """The arguments of services.pageview_track for a tracking call: the body's user agent and
    address when given (a website's server forwarding its visitor), else the request's own."""
    return {
        "page_url": payload.pageUrl,
        "referrer": payload.referrer or "",
        "post_slug": payload.postSlug or "",
        "user_agent": payload.userAgent or request.headers.get("User-Agent", ""),
        "ip": clean_ip(payload.ipAddress) or client_ip(request),
    }


def track_request(request, payload: TrackIn) -> dict:
    """Record the page view of a tracking call; {"success": bool} (never an error status)."""
    recorded = services.pageview_track(**track_fields(request, payload))
    return {"success": recorded} if recorded else {"success": False, "message": "Page view not recorded"}


@analytics_router.post("/track", response=TrackOut)
@requires(SIGNED_IN)
def track(request, payload: TrackIn):
    return track_request(request, payload)


@analytics_router.get("/page-views", response=PageViewsOut)
@requires("analytics.read", STATS_DENIED)
def page_views(request, days: int | None = None, groupBy: str | None = None):  # noqa: N803 - wire name
    data = selectors.page_views(days=clean_days(days), group_by=clean_group_by(groupBy))
    return PageViewsOut(message="Page views retrieved successfully", data=data)


@dashboard_router.get("/stats", response=DashboardStatsOut)
@requires("analytics.read", STATS_DENIED)
def stats(request):
    return DashboardStatsOut(message="Dashboard statistics retrieved successfully", data=selectors.dashboard_stats())


ROUTES = [("/analytics", analytics_router), ("/dashboard", dashboard_router)]
