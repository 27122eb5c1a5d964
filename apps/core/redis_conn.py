"""The application's Redis: its clients, its breaker and the names of tenant keys.

Every Redis use of the apps goes through here (the analytics buffer, the public API's cache,
host map and counts, the content version, the AI job-finished signal); Celery's broker and the
`limits` storage have clients of their own (their libraries'), keyed under the same prefix.

Redis is an accelerator here, never a dependency: when a call fails, callers fall back
(events go straight to PostgreSQL, responses are built uncached, a waiting request polls) and,
for REDIS_BREAKER_SECONDS, skip Redis altogether (`available()`) so that a dead or hanging Redis
does not cost every request a socket timeout. The first failure of each outage is logged.
"""
from __future__ import annotations

import logging
import threading
import time

import redis
from django.conf import settings

logger = logging.getLogger("apps.core.redis")

_clients: dict[tuple[str, float | None], redis.Redis] = {}
_lock = threading.Lock()
_down_until = 0.0


def client(*, read_timeout: float | None = None) -> redis.Redis:
    """A pooled client of settings.REDIS_URL (one per URL, so tests may point it elsewhere).
    `read_timeout`: for blocking commands (BLPOP), seconds a reply may take."""
    url = settings.REDIS_URL
    found = _clients.get((url, read_timeout))
    if found is None:
        with _lock:
            found = _clients.get((url, read_timeout))
            if found is None:
                timeout = settings.REDIS_SOCKET_TIMEOUT
                found = redis.Redis.from_url(url, socket_timeout=read_timeout or timeout,
                                             socket_connect_timeout=timeout)
                _clients[(url, read_timeout)] = found
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


def tenant_key(kind: str, schema: str, *parts) -> str:
    """`{prefix}:{kind}:{schema}[:part...]`: every key of a company's data names its schema, so
    no key of one company is ever read for another. With schema "" (and no parts) it is the
    prefix of every company's key of that kind (for Lua scripts, which add the schema)."""
    return ":".join([prefix(), kind, schema, *(str(part) for part in parts)])
