"""Sending tasks. The web process sends work to the workers but never runs a task: it loads
Celery (with kombu, billiard, click, yaml: about 10 MB per web worker) only when it first sends one,
and never imports the tasks modules. Every sender goes through this module, so every task goes to
the product's app (config.celery), whatever Celery's "current app" happens to be."""
from __future__ import annotations

import contextlib

# Sending from a request or the relay: a broker that refuses connections fails in well under a
# second, one that accepts them and never answers (frozen, a dead proxy) in a few seconds. The
# app's pooled connections have no socket timeout (such a broker held a request forever) and
# kombu's default policy retries 3 times.
SEND_TIMEOUT_SECONDS = 2.0
SEND_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}


def celery_app():
    """The product's Celery app (config.celery), loaded on first use."""
    from config.celery import app

    return app


def broker_errors() -> tuple[type[BaseException], ...]:
    """What sending raises when the broker is unreachable: kombu raises connection and channel
    errors of any transport as OperationalError; sockets raise OSError."""
    import kombu.exceptions

    return (kombu.exceptions.OperationalError, OSError)


def send_by_name(name: str, *, args: list, **options):
    """Queue the task `name` without importing its module: services send work to their app's
    tasks module this way (the tasks call the services; importing them back was a cycle), and a
    web process never loads the tasks modules (they load Pillow and the AI providers), so Celery's
    registry there does not hold them. The app's send_task adds the company's schema header
    (tenant-schemas-celery), as a task's own apply_async does."""
    current_app = celery_app()
    if current_app.conf.task_always_eager:  # run here and now (CELERY_TASK_ALWAYS_EAGER, tests)
        if name not in current_app.tasks:
            current_app.loader.import_default_modules()
        options.pop("connection", None)
        return current_app.tasks[name].apply_async(args=args, **options)
    return current_app.send_task(name, args=args, **options)


@contextlib.contextmanager
def bounded_connection():
    """A broker connection of its own with socket timeouts (SEND_TIMEOUT_SECONDS); pass it to
    send_by_name(..., connection=..., retry=True, retry_policy=SEND_RETRY_POLICY)."""
    app = celery_app()
    bounded = {"socket_timeout": SEND_TIMEOUT_SECONDS, "socket_connect_timeout": SEND_TIMEOUT_SECONDS}
    with app.connection_for_write(transport_options=bounded, connect_timeout=SEND_TIMEOUT_SECONDS) as broker:
        yield broker
