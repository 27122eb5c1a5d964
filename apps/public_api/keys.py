"""API keys of the public content API and their rate limits.

A company has two keys (tenants.models.Client): the content key (`api_key`, reads published
posts; meant to sit in a website's pages) and the preview key (`preview_key`, also reads
drafts and archived posts; keep it on a server). A key is looked up on the tenant of the
request's host only, so another company's key is as wrong as a made-up one.

A third, the Ghost content key (`ghost_content_key`, 26 hex characters), is the key of the
Ghost-compatible routes (apps.ghost_api) only: it reads what the content key reads, under the
same per-key rate limit, and is no key of /api/v1 (nor the other two keys of those routes).
"""
from __future__ import annotations

import hmac
from dataclasses import dataclass

from django.conf import settings

from apps.core import ratelimit
from apps.core.digests import sha256
from apps.core.errors import RateLimited
from apps.plans.rules import plan_limit

CONTENT = "c"
PREVIEW = "p"
GHOST = "g"  # the Ghost content key: published content, like CONTENT
RATE_LIMITED = "Too many requests for this API key. Please slow down."
# Set in the WSGI environ by the fast path when it took this request's rate-limit entry and then
# left the request to Django (which must not count it again). Not settable by a client: request
# headers reach the environ as HTTP_*.
COUNTED = "cms.public_api.counted"
# Set by the fast path when the host map has no entry for the host: Django records it if the key passes.
HOST_UNKNOWN = "cms.public_api.host_unknown"


@dataclass(frozen=True)
class ApiKey:
    kind: str  # CONTENT or PREVIEW
    key_hash: str  # identifies the key in Redis (the key itself is never stored there)
    limit: int  # requests per PUBLIC_API_RATE_WINDOW

    @property
    def is_preview(self) -> bool:
        return self.kind == PREVIEW


def key_hash(key: str) -> str:
    return sha256(key.encode("utf-8", "replace")).hexdigest()[:32]


def kind_of(client, key: str, *, ghost: bool = False) -> str | None:
    """CONTENT, PREVIEW or None, compared in constant time; with `ghost` (the Ghost-compatible
    routes), GHOST or None."""
    given = key.encode("utf-8", "replace")
    if ghost:
        ghost_key = getattr(client, "ghost_content_key", None) or ""
        return GHOST if ghost_key and hmac.compare_digest(given, ghost_key.encode()) else None
    content = hmac.compare_digest(given, (client.api_key or "").encode())
    preview = hmac.compare_digest(given, (client.preview_key or "").encode())
    if content and client.api_key:
        return CONTENT
    if preview and client.preview_key:
        return PREVIEW
    return None


def limit_for(plan: str | None) -> int:
    return settings.PUBLIC_API_RATE_LIMITS.get(plan or "", settings.PUBLIC_API_RATE_LIMIT)


def limit_of(client) -> int:
    """The company's requests per window: its plan's, or an operator's override (apps.plans.rules)."""
    return int(plan_limit(client, "public_api_rpm") or settings.PUBLIC_API_RATE_LIMIT)


def _throttle_item(limit: int):
    return ratelimit.rate(limit, settings.PUBLIC_API_RATE_WINDOW)


def throttle_key(key_hash_value: str, limit: int) -> str:
    """The Redis key of the key's sliding-window counter (the current window's; the previous
    window's is this key and "/-1"), as apps.core.ratelimit (the `limits` library) names it: the
    fast path's script counts in the same window."""
    return ratelimit.counter_key(_throttle_item(limit), "public-api", key_hash_value)


def retry_after(key_hash_value: str, limit: int) -> int:
    return ratelimit.is_blocked(_throttle_item(limit), "public-api", key_hash_value, counter=True) or 1


def throttle_hit(key_hash_value: str, limit: int) -> int:
    """Count one request of the key (a sliding-window counter in Redis, apps.core.ratelimit:
    two counters per key, a fixed cost per request); 0 when allowed, else the seconds to wait.
    Fails open when Redis does not answer."""
    if ratelimit.hit(_throttle_item(limit), "public-api", key_hash_value, counter=True):
        return 0
    return retry_after(key_hash_value, limit)


def throttle(api_key: ApiKey) -> None:
    retry_after = throttle_hit(api_key.key_hash, api_key.limit)
    if retry_after:
        raise RateLimited(RATE_LIMITED, retry_after=retry_after)


def host_fields(client) -> dict[str, str]:
    """What the fast path knows of a company (its host entry in Redis): schema, the hashes of
    its keys (content, preview, Ghost content), its rate limit and the rate-limit keys of each key."""
    limit = limit_of(client)
    content, preview = key_hash(client.api_key or "-"), key_hash(client.preview_key or "-")
    ghost = key_hash(client.ghost_content_key or "-")
    return {
        "s": client.schema_name,
        "c": content if client.api_key else "-",
        "p": preview if client.preview_key else "-",
        "l": str(limit),
        "wc": throttle_key(content, limit),
        "wp": throttle_key(preview, limit),
        "g": ghost if client.ghost_content_key else "-",
        "wg": throttle_key(ghost, limit),
    }
