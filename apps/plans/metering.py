"""Counting usage as it happens, in Redis only (apps.plans.usage folds it into the days' rows):
no database write per request, and no model imported (the web server's WSGI layer loads this)."""
from __future__ import annotations

import threading
from collections import Counter
from datetime import date

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from apps.core import redis_conn

EVENTS = ("api_requests", "ai_jobs", "webhook_deliveries")  # emails: the outgoing email log
SEPARATOR = "\t"
HOST = "h:"  # a field naming a host (public API requests), not a schema


def key(day: date | str) -> str:
    return f"{redis_conn.prefix()}:usage:{day}"


def usage_count(metric: str, amount: int = 1, *, schema_name: str | None = None) -> None:
    """Count `amount` of `metric` for the company of the connection's schema today, once the
    current transaction commits (nothing when it rolls back). Never raises."""
    if metric not in EVENTS:
        raise KeyError(metric)
    schema = schema_name or connection.schema_name
    if not schema or schema == "public" or amount <= 0:
        return
    transaction.on_commit(lambda: _add({(timezone.now().date().isoformat(), schema, metric): amount}), robust=True)


def _add(counts: dict) -> None:
    if not counts or not redis_conn.available():
        return
    try:
        pipe = redis_conn.client().pipeline(transaction=False)
        for (day, who, metric), amount in counts.items():
            pipe.hincrby(key(day), f"{who}{SEPARATOR}{metric}", amount)
            pipe.expire(key(day), 8 * 86400)  # a day never folded (beat stopped) is not kept for ever
        pipe.execute()
    except Exception as exc:  # noqa: BLE001 - usage never fails the work it counts
        redis_conn.failed(exc, "usage not counted")


# --- public API requests: added up in the process --------------------------------------------------
_buffer: Counter = Counter()
_buffer_lock = threading.Lock()


_timer: threading.Timer | None = None


def count_api_request(host: str) -> None:
    """One public API request answered (status below 400) on `host`; sent to Redis with the
    others of this process within USAGE_FLUSH_SECONDS (a timer thread, started by the first count
    after a flush)."""
    global _timer
    with _buffer_lock:
        _buffer[(timezone.now().date().isoformat(), HOST + host.split(":")[0].lower(), "api_requests")] += 1
        if len(_buffer) >= 1000:
            full = True
        else:
            full = False
            if _timer is None:
                _timer = threading.Timer(settings.USAGE_FLUSH_SECONDS, flush)
                _timer.daemon = True
                _timer.start()
    if full:
        flush()


def flush() -> None:
    """Send what this process added up (the timer, tests)."""
    global _timer
    with _buffer_lock:
        counts = dict(_buffer)
        _buffer.clear()
        if _timer is not None and _timer is not threading.current_thread():
            _timer.cancel()
        _timer = None
    _add(counts)


def public_api_answered(environ, status: str) -> None:
    """The WSGI layer's hook (apps.public_api.wsgi): a public API request answered below 400 (a
    valid key: a company's host) is that company's usage."""
    if status < "400":
        count_api_request(environ.get("HTTP_HOST") or "")
