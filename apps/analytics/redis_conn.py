"""The Redis connection of the analytics buffer and the public API cache, with a breaker.

Redis is an accelerator here, never a dependency: when a call fails, callers fall back
(events go straight to PostgreSQL, responses are built uncached) and, for
REDIS_BREAKER_SECONDS, skip Redis altogether so that a dead or hanging Redis does not cost
every request a socket timeout. The first failure of each outage is logged as a warning.
"""
from __future__ import annotations

import logging
import threading
import time

import redis
from django.conf import settings

logger = logging.getLogger("apps.analytics.redis")

_clients: dict[str, redis.Redis] = {}
_lock = threading.Lock()
_down_until = 0.0


def client() -> redis.Redis:
    """A client of settings.REDIS_URL (one pool per URL, so tests may point it elsewhere)."""
    url = settings.REDIS_URL
    found = _clients.get(url)
    if found is None:
        with _lock:
            found = _clients.get(url)
            if found is None:
                timeout = settings.REDIS_SOCKET_TIMEOUT
                found = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
                _clients[url] = found
    return found


def available() -> bool:
    """False while the breaker is open (a recent call failed)."""
    return time.monotonic() >= _down_until


def failed(exc: BaseException, what: str) -> None:
    """Record a failed call: open the breaker and log the outage once."""
    global _down_until
    was_up = available()
    _down_until = time.monotonic() + settings.REDIS_BREAKER_SECONDS
    if was_up:
        logger.warning("Redis unavailable (%s: %s); %s", exc.__class__.__name__, exc, what)


def reset() -> None:
    """Close the breaker (tests)."""
    global _down_until
    _down_until = 0.0


def prefix() -> str:
    return settings.CACHES["default"]["KEY_PREFIX"]
