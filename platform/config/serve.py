"""The web server: granian serving `apps.public_api.wsgi:application` (Django behind the public
API's fast path), with the application and its URL configuration imported once in the main
process before the workers are forked, as gunicorn's --preload does: the workers share those
pages instead of each importing everything again. `python -m config.serve` (PYTHONPATH with
platform/ and the project root); settings from the environment:

WEB_PORT or PORT (8000), WEB_HOST (0.0.0.0), WEB_WORKERS (2), WEB_THREADS (1 blocking thread
per worker), WEB_MAX_RSS_MB (300: a worker above it is replaced), WEB_ACCESS_LOG (1),
WEB_LOG_LEVEL (info).
"""
from __future__ import annotations

import gc
import os

TARGET = "apps.public_api.wsgi:application"


def preload() -> None:
    """Import the application and every module a first request would import (the URL
    configurations and through them every API module), then keep the garbage collector off
    those objects so that it does not write to the shared pages in the workers."""
    import importlib

    from django.conf import settings

    importlib.import_module(TARGET.split(":")[0])
    for urlconf in {settings.ROOT_URLCONF, getattr(settings, "PUBLIC_SCHEMA_URLCONF", settings.ROOT_URLCONF)}:
        importlib.import_module(urlconf)
    gc.freeze()


def main() -> None:
    from granian import Granian
    from granian.constants import Interfaces
    from granian.log import LogLevels

    preload()
    Granian(
        TARGET,
        interface=Interfaces.WSGI,
        address=os.environ.get("WEB_HOST", "0.0.0.0"),  # noqa: S104 - a container's server
        port=int(os.environ.get("WEB_PORT") or os.environ.get("PORT") or 8000),
        workers=int(os.environ.get("WEB_WORKERS", "2")),
        blocking_threads=int(os.environ.get("WEB_THREADS", "1")),
        websockets=False,
        respawn_failed_workers=True,
        workers_max_rss=int(os.environ.get("WEB_MAX_RSS_MB", "300")) or None,
        log_access=os.environ.get("WEB_ACCESS_LOG", "1") == "1",
        log_level=LogLevels(os.environ.get("WEB_LOG_LEVEL", "info")),
    ).serve()


if __name__ == "__main__":
    main()
