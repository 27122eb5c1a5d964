"""Dashboard API of analytics (docs/analytics.md): POST analytics/track, GET analytics/page-views,
GET dashboard/stats. The websites' tracking endpoint is in apps/public_api."""
from __future__ import annotations

from ninja import Router

from apps.analytics import selectors
from apps.analytics.schemas import DashboardStatsOut, PageViewsOut, clean_days, clean_group_by
from apps.analytics.tracking import TrackIn, TrackOut, track_request
from apps.core.permissions import SIGNED_IN, requires

analytics_router = Router(tags=["analytics"])
dashboard_router = Router(tags=["dashboard"])

STATS_DENIED = "You don't have permission to view statistics"


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
