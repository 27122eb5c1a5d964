"""The application's Redis: its clients, its breaker and the names of tenant keys.

Every Redis use of the apps goes through here (the analytics buffer, the public API's cache,
host map and counts, the content version, the AI job-finished signal); Celery's broker and the
`limits` storage have clients of their own (their libraries'), keyed under the same prefix.

With REDIS_SENTINELS set (docs/scaling-engines.md#redis-sentinel), every client here, the cache's
(SentinelPool), the `limits` storage (limits_storage_uri) and Celery's broker (kombu's sentinel
transport, settings) ask the sentinels for the current primary of REDIS_SENTINEL_MASTER and ask
again after a connection fails: a failover moves them to the promoted replica.

Redis is an accelerator here, never a dependency: when a call fails, callers fall back
(events go straight to PostgreSQL, responses are built uncached, a waiting request polls) and,
for REDIS_BREAKER_SECONDS, skip Redis altogether (`available()`) so that a dead or hanging Redis
does not cost every request a socket timeout. The first failure of each outage is logged.
"""
from __future__ import annotations

import logging
import threading
import time

from urllib.parse import unquote, urlsplit

import redis
from django.conf import settings
from redis.sentinel import Sentinel, SentinelConnectionPool

logger = logging.getLogger("apps.core.redis")

_clients: dict[tuple[str, float | None], redis.Redis] = {}
_lock = threading.Lock()
_down_until = 0.0


def client(*, read_timeout: float | None = None) -> redis.Redis:
    """A pooled client of settings.REDIS_URL (one per URL, so tests may point it elsewhere), or of
    the primary the sentinels name. `read_timeout`: for blocking commands (BLPOP), seconds a reply
    may take."""
    url = settings.REDIS_URL
    key = (url, read_timeout, tuple(settings.REDIS_SENTINELS))
    found = _clients.get(key)
    if found is None:
        with _lock:
            found = _clients.get(key)
            if found is None:
                timeout = settings.REDIS_SOCKET_TIMEOUT
                if settings.REDIS_SENTINELS:
                    found = sentinel().master_for(settings.REDIS_SENTINEL_MASTER, socket_timeout=read_timeout or timeout,
                                                  socket_connect_timeout=timeout, **url_options(url))
                else:
                    found = redis.Redis.from_url(url, socket_timeout=read_timeout or timeout,
                                                 socket_connect_timeout=timeout)
                _clients[key] = found
    return found


# --- Redis Sentinel ---------------------------------------------------------------------------------
def url_options(url: str) -> dict:
    """The database and credentials of a redis:// URL (its host is the sentinels' business)."""
    parts = urlsplit(url)
    options: dict = {"db": int(parts.path.strip("/") or 0)}
    if parts.username:
        options["username"] = unquote(parts.username)
    if parts.password:
        options["password"] = unquote(parts.password)
    return options


def sentinel_options() -> dict:
    """How the sentinels themselves are reached (timeouts, REDIS_SENTINEL_PASSWORD)."""
    timeout = settings.REDIS_SOCKET_TIMEOUT
    options = {"socket_timeout": timeout, "socket_connect_timeout": timeout}
    if settings.REDIS_SENTINEL_PASSWORD:
        options["password"] = settings.REDIS_SENTINEL_PASSWORD
    return options


_sentinels: dict[tuple, Sentinel] = {}


def sentinel() -> Sentinel:
    """The sentinels of REDIS_SENTINELS (one manager per process and list)."""
    key = tuple(settings.REDIS_SENTINELS)
    found = _sentinels.get(key)
    if found is None:
        found = _sentinels[key] = Sentinel(list(key), sentinel_kwargs=sentinel_options())
    return found


class SentinelPool(SentinelConnectionPool):
    """The pool of Django's Redis cache (CACHES OPTIONS pool_class) with REDIS_SENTINELS: Django
    builds it from the LOCATION URL, which gives the database and password; the sentinels give the
    primary's address, asked again after a connection fails."""

    @classmethod
    def from_url(cls, url: str, **options) -> "SentinelPool":
        return cls(settings.REDIS_SENTINEL_MASTER, sentinel(), **{**url_options(url), **options})


def limits_storage() -> tuple[str, dict]:
    """The `limits` storage URI and options for the throttles: REDIS_URL, or its sentinels (reads
    and writes on the primary, so a throttle never reads a replica behind its own hits)."""
    timeout = settings.REDIS_SOCKET_TIMEOUT
    options: dict = {"socket_timeout": timeout, "socket_connect_timeout": timeout}
    if not settings.REDIS_SENTINELS:
        return settings.REDIS_URL, options
    hosts = ",".join(f"{host}:{port}" for host, port in settings.REDIS_SENTINELS)
    return (f"redis+sentinel://{hosts}/{settings.REDIS_SENTINEL_MASTER}",
            {**options, **url_options(settings.REDIS_URL), "use_replicas": False, "sentinel_kwargs": sentinel_options()})


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


def broker_client(timeout: float) -> redis.Redis | None:
    """A client of Celery's broker when it is Redis (redis:// or, with sentinels, sentinel://),
    for the health check and the queue metrics; None for another broker. Close it after use."""
    url = settings.CELERY_BROKER_URL
    if url.startswith(("redis://", "rediss://", "unix://")):
        return redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
    if url.startswith("sentinel://") and settings.REDIS_SENTINELS:
        first = "redis://" + url.split(";", 1)[0].removeprefix("sentinel://")
        return sentinel().master_for(settings.REDIS_SENTINEL_MASTER, socket_connect_timeout=timeout,
                                     socket_timeout=timeout, **url_options(first))
    return None
