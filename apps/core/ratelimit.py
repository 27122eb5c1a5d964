"""Atomic rate limits in Redis, through the `limits` library (Lua scripts): moving windows (a list
of timestamps per key: exact, costs grow with the limit) and, with `counter=True`, sliding-window
counters (two counters per key, the previous window's weighted by how much of it is still
inside the window: a fixed cost per hit whatever the limit; the public API's per-key limits).

When Redis does not answer, limits fail open and the event is logged: a cache outage
must not lock every user out.
"""
from __future__ import annotations

import logging
import math
import time
from functools import lru_cache

from django.conf import settings
from limits import RateLimitItem, RateLimitItemPerSecond, parse
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter, SlidingWindowCounterRateLimiter

from apps.core import redis_conn
from apps.core.errors import RateLimited

logger = logging.getLogger(__name__)


@lru_cache(maxsize=1)
def _limiter() -> MovingWindowRateLimiter:
    uri, options = redis_conn.limits_storage()
    storage = storage_from_string(uri, key_prefix=f"{redis_conn.prefix()}:limits", **options)
    return MovingWindowRateLimiter(storage)


def prepare() -> None:
    """Build the throttles' storage now. The web server does it before it forks its workers
    (config.serve.preload): building it computes the SHA-1 of the `limits` library's Lua scripts
    with hashlib, i.e. OpenSSL, whose digest code would otherwise be paged into every worker by its
    first throttled request (1 MB each: a content worker computes no other OpenSSL digest,
    apps.core.digests). Nothing is sent to Redis: its clients connect on first use, in each worker."""
    _limiter()


def _strategy(counter: bool):
    """The moving window, or the sliding-window counter over the same storage."""
    limiter = _limiter()
    return SlidingWindowCounterRateLimiter(limiter.storage) if counter else limiter


def counter_key(limit: RateLimitItem, *identifiers: str) -> str:
    """The Redis key of the current window's counter of a sliding-window limit (the previous
    window's is this key with "/-1" appended), as the `limits` library names them."""
    storage = _limiter().storage
    return storage.prefixed_key(storage._current_window_key(limit.key_for(*identifiers)))


def rate(amount: int, seconds: int) -> RateLimitItem:
    return RateLimitItemPerSecond(amount, seconds)


def parse_rate(text: str) -> RateLimitItem:
    """A limit written in the `limits` notation of the settings: "5/hour", "100 per 10 minutes"."""
    return parse(text)


def wait_phrase(seconds: int) -> str:
    """How long a client must wait, for messages: "1 minute", "15 minutes", "2 hours"."""
    minutes = max(1, round(seconds / 60))
    if minutes >= 120:
        hours = round(minutes / 60)
        return f"{hours} hours"
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def is_blocked(limit: RateLimitItem, *identifiers: str, counter: bool = False) -> int:
    """0 when another hit is allowed, else the seconds until it is (for Retry-After)."""
    try:
        limiter = _strategy(counter)
        if limiter.test(limit, *identifiers):
            return 0
        reset_at, _remaining = limiter.get_window_stats(limit, *identifiers)
        return max(1, math.ceil(reset_at - time.time()))
    except Exception:  # noqa: BLE001 - any storage failure: fail open
        logger.warning("rate limit storage unavailable; allowing request", exc_info=True)
        return 0


def hit(limit: RateLimitItem, *identifiers: str, counter: bool = False) -> bool:
    """Record one hit; False when it is over the limit."""
    try:
        return _strategy(counter).hit(limit, *identifiers)
    except Exception:  # noqa: BLE001
        logger.warning("rate limit storage unavailable; allowing request", exc_info=True)
        return True


def spend(checks: list[tuple[RateLimitItem, tuple[str, ...]]], message: str) -> None:
    """One attempt against every limit of `checks` (limit, identifiers): refused with 429 when any
    of them is used up, else counted in each, accepted or not later. An attempt that a concurrent
    one beat to the last place is refused too. `message` is the user's text, `{wait}` the wait."""
    wait = max(is_blocked(limit, *key) for limit, key in checks)
    if wait == 0:
        for limit, key in checks:
            if not hit(limit, *key):
                wait = max(wait, 1, is_blocked(limit, *key))
    if wait:
        raise RateLimited(message.format(wait=wait_phrase(wait)), retry_after=wait)


def clear(limit: RateLimitItem, *identifiers: str) -> None:
    try:
        _limiter().clear(limit, *identifiers)
    except Exception:  # noqa: BLE001
        logger.warning("rate limit storage unavailable; could not clear", exc_info=True)


def client_ip(request) -> str:
    """The caller's address; X-Forwarded-For is trusted only behind TRUSTED_PROXY_COUNT proxies."""
    proxies = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    if proxies:
        forwarded = [part.strip() for part in request.headers.get("X-Forwarded-For", "").split(",") if part.strip()]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR", "") or "unknown"
