"""A page view sent to POST analytics/track (the websites' route of the public API, apps.public_api,
and the dashboard's, apps.analytics.api): its body, its reply and what both record. Apart from the
dashboard's analytics replies so that a content web process (WEB_ROUTES=content), whose fast path
answers the websites' calls, does not import those (apps.analytics.schemas re-exports these)."""
from __future__ import annotations

from pydantic import field_validator

from apps.analytics import services
from apps.analytics.privacy import clean_ip
from apps.core.ratelimit import client_ip
from apps.core.schemas import InSchema, OutSchema, omitted
from apps.core.validation import clean_required, text

PAGE_URL_REQUIRED = "Page URL is required"


class TrackIn(InSchema):
    """A page view: pageUrl (required), referrer, postSlug, userAgent, ipAddress (optional;
    the request's own address and User-Agent are used when absent). Long values are cut, not
    refused: a well-formed body is never answered with an error status."""

    pageUrl: str | None = None
    referrer: str | None = None
    postSlug: str | None = None
    userAgent: str | None = None
    ipAddress: str | None = None

    @field_validator("pageUrl", mode="before")
    @classmethod
    def _page_url(cls, value):
        return clean_required(value, PAGE_URL_REQUIRED)

    @field_validator("referrer", "postSlug", "userAgent", "ipAddress", mode="before")
    @classmethod
    def _text(cls, value, info):
        label = {"referrer": "Referrer", "postSlug": "Post slug", "userAgent": "User agent",
                 "ipAddress": "IP address"}[info.field_name]
        return text(value, f"{label} must be text").strip()


class TrackOut(OutSchema):
    """`success` is false (still 200) only when neither Redis nor PostgreSQL took the page view."""

    success: bool
    message: str = omitted()


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
