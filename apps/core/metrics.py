"""Prometheus metrics (docs/operations.md: Metrics), with the maintained client library
(`prometheus_client`), served at /metrics (the web server's WSGI layer, on any host: scrapers call
a pod by its address) to operators' scrapers only.

- Per web process: requests and their latency by route group, method and status, and the public
  API's cache results, counted by the WSGI layer in front of everything (`MeteredApp`), so the
  public API's fast path is counted too. Web servers run several worker processes: with
  PROMETHEUS_MULTIPROC_DIR set (config.serve sets one), each process writes its values there and
  a scrape adds them up (the library's multiprocess mode).
- Shared by every process of every machine (Celery workers included): counters kept in a Redis
  hash (`shared_count`): task outcomes, edge purges.
- Read when scraped (`StateCollector`): Celery queue lengths, the outbox backlog by state, database
  connections by state, companies by status and sign-ups of the last day.

Labels are bounded: route groups, methods, status codes, task names, queue names; never a company.
"""
from __future__ import annotations

import logging
import os
import time
from datetime import timedelta
from functools import lru_cache

from django.conf import settings
from django.core.handlers.wsgi import WSGIRequest
from django.db import connection
from django.db.models import Count
from django.utils import timezone
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client import multiprocess
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

from apps.core import redis_conn
from apps.core.health import is_health_path
from apps.core.models import OutboxMessage
from apps.core.operator_access import operator_caller
from apps.core.outbox import STATES, state_filters
from tenants.models import Client

logger = logging.getLogger(__name__)

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

REQUESTS = Counter("cms_http_requests", "HTTP requests answered, by route group, method and status code",
                   ["route", "method", "status"])
LATENCY = Histogram("cms_http_request_duration_seconds", "Time to answer a request (until its headers), by route group",
                    ["route"], buckets=LATENCY_BUCKETS)
PUBLIC_API_CACHE = Counter("cms_public_api_cache", "Public API replies by their X-Cache result (hit, miss, ...)",
                           ["result"])


# --- requests: the WSGI layer ----------------------------------------------------------------------
PUBLIC_ROUTES = frozenset({"public_api", "ghost_api"})  # a company's website's reads: its usage


def route_group(path: str, host: str) -> str:
    """A bounded name for where a request went."""
    root = host.split(":")[0].lower() in (settings.ROOT_DOMAIN, f"www.{settings.ROOT_DOMAIN}")
    if path.startswith("/api/v1/") or path == "/api/v1":
        return "public_api"
    if path.startswith("/ghost/api/"):
        return "ghost_api"  # the Ghost-compatible routes: the public API's keys, limits and usage
    if is_health_path(path):
        return "health"
    if path.startswith("/api/auth/"):
        return "auth"
    if path.startswith("/api/"):
        return "root_api" if root else "dashboard_api"
    if path.rstrip("/") == "/metrics":
        return "metrics"
    if path.startswith("/operator"):
        return "operator"
    if path.startswith("/media/"):
        return "media"
    if path.startswith("/feeds/") or path in ("/sitemap.xml", "/robots.txt"):
        return "feeds"
    if path.startswith(("/static/", "/assets/")):
        return "static"
    return "dashboard_page"


class MeteredApp:
    """WSGI middleware: counts every request and its time to the response's headers.
    `on_public_api(environ, status)`: called for each public API request (its usage)."""

    def __init__(self, app, *, on_public_api=None):
        self.app = app
        self.on_public_api = on_public_api

    def __call__(self, environ, start_response):
        started = time.perf_counter()
        seen: dict = {}
        app = scrape_app if (environ.get("PATH_INFO") or "").rstrip("/") == "/metrics" else self.app

        def start(status, headers, exc_info=None):
            seen["status"] = status.split(" ", 1)[0]
            seen["cache"] = next((value for name, value in headers if name.lower() == "x-cache"), None)
            return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)

        try:
            return app(environ, start)
        finally:
            try:
                _observe(environ, seen, time.perf_counter() - started, self.on_public_api)
            except Exception:  # noqa: BLE001 - metrics never fail a request
                logger.exception("metrics: could not count a request")

    def __getattr__(self, name):  # the wrapped application's attributes (tests, servers)
        return getattr(self.app, name)


def _observe(environ, seen: dict, seconds: float, on_public_api=None) -> None:
    path = environ.get("PATH_INFO") or "/"
    route = route_group(path, environ.get("HTTP_HOST") or environ.get("SERVER_NAME") or "")
    method = environ.get("REQUEST_METHOD", "GET").upper()
    counted, timed = _children(route, method if method in METHODS else "other", seen.get("status", "500"))
    counted.inc()
    timed.observe(seconds)
    if route in PUBLIC_ROUTES:
        if seen.get("cache"):
            _cache_child(str(seen["cache"]).lower()[:16]).inc()
        if on_public_api is not None:
            on_public_api(environ, seen.get("status", "500"))


@lru_cache(maxsize=512)
def _children(route: str, method: str, status: str):
    """The request counter's and the latency histogram's series of these labels (the client
    library's `labels()` builds and locks on each call; the series are the same objects)."""
    return REQUESTS.labels(route, method, status), LATENCY.labels(route)


@lru_cache(maxsize=64)
def _cache_child(result: str):
    return PUBLIC_API_CACHE.labels(result)


# --- counters shared by every process (Redis) --------------------------------------------------------
SHARED = {
    "cms_celery_tasks": ("Celery tasks finished, by task and outcome (success, failure, retry)", ("task", "outcome")),
    "cms_edge_purges": ("Purges of the HTTP cache tier, by result (sent, failed)", ("result",)),
}
SEPARATOR = "\t"


def _shared_key(name: str) -> str:
    return f"{redis_conn.prefix()}:metrics:{name}"


def shared_count(name: str, *labels: str, amount: int = 1) -> None:
    """Add to a counter every process shares (a field of a Redis hash); never raises."""
    if not redis_conn.available():
        return
    try:
        redis_conn.client().hincrby(_shared_key(name), SEPARATOR.join(labels), amount)
    except Exception as exc:  # noqa: BLE001 - metrics never fail the work they count
        redis_conn.failed(exc, "a metric was not counted")


def on_task_postrun(task=None, state=None, **kwargs) -> None:
    """celery's task_postrun: one outcome per finished task run."""
    outcome = {"SUCCESS": "success", "FAILURE": "failure", "RETRY": "retry"}.get(state or "", "other")
    shared_count("cms_celery_tasks", getattr(task, "name", "unknown"), outcome)


# --- read when scraped --------------------------------------------------------------------------------
class StateCollector:
    """What the scrape reads from Redis and PostgreSQL; a part that fails is left out and counted
    in cms_metrics_errors (a scrape never fails because a dependency is down)."""

    def collect(self):
        errors = GaugeMetricFamily("cms_metrics_errors", "Parts of this scrape that could not be read", labels=["part"])
        for part in (self._shared, self._queues, self._outbox, self._database, self._companies):
            try:
                yield from part()
            except Exception as exc:  # noqa: BLE001
                logger.warning("metrics: %s not read: %s", part.__name__, exc)
                errors.add_metric([part.__name__.lstrip("_")], 1)
        yield errors

    @staticmethod
    def _shared():
        client = redis_conn.client()
        for name, (documentation, labels) in SHARED.items():
            family = CounterMetricFamily(name, documentation, labels=list(labels))
            for field, value in client.hgetall(_shared_key(name)).items():
                values = field.decode().split(SEPARATOR)
                if len(values) == len(labels):
                    family.add_metric(values, float(value))
            yield family

    @staticmethod
    def _queues():
        family = GaugeMetricFamily("cms_celery_queue_length", "Tasks waiting in a Celery queue", labels=["queue"])
        queues = {settings.CELERY_TASK_DEFAULT_QUEUE, *([settings.AI_QUEUE] if settings.AI_QUEUE else [])}
        broker = redis_conn.broker_client(settings.REDIS_SOCKET_TIMEOUT)
        if broker is not None:
            try:
                for queue in sorted(queues):
                    family.add_metric([queue], broker.llen(queue))
            finally:
                broker.close()
        yield family

    @staticmethod
    def _outbox():
        filters = state_filters()
        counts = OutboxMessage.objects.aggregate(**{state: Count("id", filter=filters[state]) for state in STATES})
        family = GaugeMetricFamily("cms_outbox_messages", "Outbox rows by state (apps/core/outbox.py)", labels=["state"])
        for state in STATES:
            family.add_metric([state], counts[state] or 0)
        yield family

    @staticmethod
    def _database():
        family = GaugeMetricFamily("cms_db_connections", "Connections to the product's database, by state "
                                   "(pg_stat_activity)", labels=["state"])
        with connection.cursor() as cursor:
            cursor.execute("SELECT coalesce(state, 'unknown'), count(*) FROM pg_stat_activity "
                           "WHERE datname = current_database() GROUP BY 1")
            for state, count in cursor.fetchall():
                family.add_metric([state.replace(" ", "_")], count)
        yield family

    @staticmethod
    def _companies():
        family = GaugeMetricFamily("cms_companies", "Companies by status", labels=["status"])
        for row in Client.objects.values("status").annotate(n=Count("id")).order_by("status"):
            family.add_metric([row["status"]], row["n"])
        yield family
        yield GaugeMetricFamily("cms_signups_last_day", "Companies signed up in the last 24 hours",
                                value=Client.objects.filter(created_at__gte=timezone.now() - timedelta(days=1)).count())


class _ThisProcess:
    """The metrics of this process's registry (without PROMETHEUS_MULTIPROC_DIR: one process)."""

    def collect(self):
        yield from REGISTRY.collect()


def exposition() -> tuple[bytes, str]:
    """The text a scrape gets, and its content type."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(_ThisProcess())
    registry.register(StateCollector())
    return generate_latest(registry), CONTENT_TYPE_LATEST


def scrape_app(environ, start_response):
    """GET /metrics, on any host (scrapers call a pod by its address, not by a company's host):
    operators' scrapers only (METRICS_TOKEN or METRICS_NETWORKS, the rule of the health detail);
    anyone else gets 403. Answered here, in front of Django's host routing."""
    request = WSGIRequest(environ)
    if not operator_caller(request, token=settings.METRICS_TOKEN, networks=settings.METRICS_NETWORKS):
        start_response("403 Forbidden", [("Content-Type", "text/plain; charset=utf-8")])
        return [b"Forbidden\n"]
    body, content_type = exposition()
    start_response("200 OK", [("Content-Type", content_type), ("Cache-Control", "no-store"),
                              ("Content-Length", str(len(body)))])
    return [body]
