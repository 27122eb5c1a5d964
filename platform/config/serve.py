"""The web server: granian serving `apps.public_api.wsgi:application` (Django behind the public
API's fast path), with the application and its URL configuration imported once in the main
process before the workers are forked, as gunicorn's --preload does: the workers share those
pages instead of each importing everything again. `python -m config.serve` (PYTHONPATH with
platform/ and the project root); settings from the environment:

WEB_PORT or PORT (8000), WEB_HOST (0.0.0.0; 127.0.0.1 when DEBUG is on, so that debug pages
never reach the network), WEB_WORKERS (2), WEB_THREADS (1 blocking thread per worker),
WEB_MAX_RSS_MB (300: a worker above it is replaced), WEB_ACCESS_LOG (1), WEB_LOG_LEVEL (info),
WEB_RELOAD (0; `make dev` sets 1: workers restart when a Python file changes, and the
application is then imported by each worker instead of before the fork).

`make dev` serves with this server too: its request threads are a fixed pool, so persistent
database connections (DB_CONN_MAX_AGE) stay bounded by workers x threads, where a
thread-per-request server leaves one behind per finished thread.
"""
from __future__ import annotations

import gc
import os
from pathlib import Path

TARGET = "apps.public_api.wsgi:application"


def preload() -> None:
    """Import the application and every module a first request would import (the URL
    configurations and through them every API module) and build the throttles' storage, then keep
    the garbage collector off those objects so that it does not write to the shared pages in the
    workers."""
    import importlib

    from django.conf import settings

    importlib.import_module(TARGET.split(":")[0])
    for urlconf in {settings.ROOT_URLCONF, getattr(settings, "PUBLIC_SCHEMA_URLCONF", settings.ROOT_URLCONF)}:
        importlib.import_module(urlconf)
    from apps.core import ratelimit

    ratelimit.prepare()  # the throttles' storage, made once here (its scripts' SHA-1s: OpenSSL)
    gc.freeze()


def prepare_metrics_dir(workers: int) -> None:
    """Prometheus' multiprocess mode (apps/core/metrics.py), before anything imports the client
    library: the directory where each worker writes its values, emptied (a previous run's values
    must not be added to this one's). Without PROMETHEUS_MULTIPROC_DIR and with more than one
    worker, a fresh temporary directory."""
    import tempfile

    path = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not path:
        if workers <= 1:
            return
        path = os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="cms-metrics-")
    directory = Path(path)
    directory.mkdir(parents=True, exist_ok=True)
    for stale in directory.glob("*.db"):
        stale.unlink()


def main() -> None:
    from granian import Granian
    from granian.constants import Interfaces
    from granian.log import LogLevels

    from config.environment import env_bool
    from config.signing_keys import signing_settings

    debug = env_bool("DEBUG", False)
    signing_settings(debug=debug)  # refuses to start on an unsafe key, before any worker is forked
    reload = env_bool("WEB_RELOAD", False)
    workers = int(os.environ.get("WEB_WORKERS", "2"))
    prepare_metrics_dir(workers)
    # Reloading forks fresh workers from this process: it must not have imported the application.
    if not reload:
        preload()
    root = Path(__file__).resolve().parents[2]
    Granian(
        TARGET,
        interface=Interfaces.WSGI,
        # Debug pages list settings and URL patterns: with DEBUG on, only this machine may see them.
        address=os.environ.get("WEB_HOST") or ("127.0.0.1" if debug else "0.0.0.0"),  # noqa: S104
        port=int(os.environ.get("WEB_PORT") or os.environ.get("PORT") or 8000),
        reload=reload,
        reload_paths=[root / name for name in ("apps", "tenants", "platform")] if reload else None,
        workers=workers,
        blocking_threads=int(os.environ.get("WEB_THREADS", "1")),
        websockets=False,
        respawn_failed_workers=True,
        workers_max_rss=int(os.environ.get("WEB_MAX_RSS_MB", "300")) or None,
        log_access=os.environ.get("WEB_ACCESS_LOG", "1") == "1",
        log_level=LogLevels(os.environ.get("WEB_LOG_LEVEL", "info")),
    ).serve()


if __name__ == "__main__":
    main()
