"""Fixtures for every test: real PostgreSQL (a test database per xdist worker) and Redis
(a database per worker, flushed per test), tenants provisioned like sign-up does."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from apps.core import testing
from apps.core.task_queue import celery_app

# Tests call tasks directly (`task.delay()`, `task.apply()`): their shared_task proxies must find
# the product's app, which web processes load only when they first send (apps.core.task_queue).
celery_app()

ROOT = Path(__file__).resolve().parent
# The run's own PostgreSQL, spare company schemas, catalog vacuums, the slowest tests and the
# suite's time (docs/testing.md).
pytest_plugins = ["apps.core.testsuite.plugin"]


@pytest.fixture(autouse=True)
def _clean_redis():
    import redis

    from apps.public_api import core

    client = redis.Redis.from_url(settings.REDIS_URL)
    client.flushdb()
    core.forget_leases()  # nothing a worker answered for an earlier test's Redis
    yield
    client.close()


@pytest.fixture(autouse=True)
def _public_schema():
    connection.set_schema_to_public()
    yield
    connection.set_schema_to_public()


@pytest.fixture(autouse=True)
def _one_company_per_statement():
    """Every statement a test issues stays within one company's schema, joined at most with the
    public reference tables (apps/core/sharding.py: what Citus schema-based sharding needs)."""
    from apps.core import sharding

    found = []

    def check(execute, sql, params, many, context):
        reason = sharding.problem(sql)
        if reason:
            found.append(f"{reason}\n    {sql[:400]}")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(check):
        yield
    assert not found, "statements that would span Citus nodes:\n" + "\n".join(found)


@pytest.fixture
def make_tenant(db):
    """make_tenant(subdomain=None, **kw) -> Client, provisioned from the template."""
    created = []

    def factory(subdomain: str | None = None, **kwargs):
        tenant = testing.create_tenant(subdomain, **kwargs)
        created.append(tenant)
        return tenant

    yield factory
    # Transactional tests commit: drop what they created. Others roll back on their own.
    connection.set_schema_to_public()
    from tenants.models import Client

    if connection.in_atomic_block:  # the test's transaction rolls everything back
        return
    for tenant in created:
        if Client.objects.filter(pk=tenant.pk).exists():
            tenant.delete(force_drop=True)


@pytest.fixture
def tenant(make_tenant):
    return make_tenant()


@pytest.fixture
def other_tenant(make_tenant):
    return make_tenant()


@pytest.fixture
def admin(tenant):
    return testing.tenant_admin(tenant)


@pytest.fixture
def make_user():
    return testing.create_user


@pytest.fixture
def api(tenant, admin):
    """The dashboard API of `tenant`, signed in as its admin."""
    return testing.Api(tenant, user=admin)


@pytest.fixture
def anon(tenant):
    return testing.Api(tenant)


@pytest.fixture
def root_api():
    return testing.Api(None)


@pytest.fixture
def role_api(tenant):
    """role_api(role) -> Api signed in as a new user with that role in `tenant`."""

    def factory(role: str):
        if role == "admin":
            return testing.Api(tenant, user=testing.tenant_admin(tenant))
        return testing.Api(tenant, user=testing.create_user(tenant, role))

    return factory


@pytest.fixture
def celery_worker_process(transactional_db):
    """A real Celery worker in a subprocess, on this test's database and broker.

    Use with transactional tests (the worker only sees committed rows). Yields a handle with
    .stop() / .start() / .kill() so tests can restart or kill it mid-task."""
    handle = WorkerProcess(connection.settings_dict["NAME"])
    handle.start()
    yield handle
    handle.stop()


@pytest.fixture
def smtp(monkeypatch, settings):
    """A real SMTP server (aiosmtpd, a free port) that the product sends to: in the settings of this
    process and in os.environ, so a worker or server started afterwards sends there too. Retries
    are fast. Read what it received with smtp.wait_for(n) / smtp.to(address)."""
    from apps.core.mailcatcher import SmtpCatcher

    with SmtpCatcher() as catcher:
        monkeypatch.setenv("EMAIL_URL", catcher.url)
        monkeypatch.setenv("EMAIL_RETRY_BASE_SECONDS", "0.2")
        monkeypatch.setenv("EMAIL_RETRY_MAX_SECONDS", "1")
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", catcher.port
        settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
        settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
        settings.EMAIL_RETRY_BASE_SECONDS, settings.EMAIL_RETRY_MAX_SECONDS = 0.2, 1.0
        yield catcher


@pytest.fixture
def mail_worker(smtp, transactional_db):
    """A real Celery worker that sends email to the `smtp` server (transactional tests)."""
    handle = WorkerProcess(connection.settings_dict["NAME"])
    handle.start()
    yield handle
    handle.stop()


def child_process_env(database_name: str, **extra: str) -> dict:
    """Environment of a process (worker, server) of the test settings on this test database and
    this xdist worker's Redis database."""
    db = connection.settings_dict
    password = db.get("PASSWORD") or ""
    auth = f"{db.get('USER') or 'postgres'}{':' + password if password else ''}"
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings_test",
        "DATABASE_URL": f"postgres://{auth}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{database_name}",
        "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
        "PYTEST_XDIST_WORKER": os.environ.get("PYTEST_XDIST_WORKER", "gw0"),
        **extra,
    }


@pytest.fixture(scope="session")
def live_app(django_db_setup, django_db_blocker, tmp_path_factory):
    """gunicorn (2 gthread workers x 10 threads, the production WSGI app, the test settings) on this
    test database, started once per test process: real HTTP requests that run at the same moment.
    Use it from `transaction=True` tests (the server only sees committed rows), with
    apps.core.testing.parallel() to fire requests together."""
    from apps.core.testing import LiveApp
    from apps.core.tests.hardening.services import Gunicorn

    with django_db_blocker.unblock():
        name = connection.settings_dict["NAME"]
    # No persistent connections: each request opens and closes its own (the database is shared).
    env = child_process_env(name, DB_CONN_MAX_AGE="0", LOG_LEVEL="WARNING")
    log = tmp_path_factory.mktemp("live-app") / "gunicorn.log"
    server = Gunicorn(env, workers=2, threads=10, log=log).start()
    try:
        yield LiveApp(server.base_url, log)
    finally:
        server.stop()


class WorkerProcess:
    def __init__(self, database_name: str, *, processes: int = 1):
        """`processes`: 1, the solo pool (a task at a time); more, a prefork pool of that many, as the
        image runs its worker."""
        self.env = child_process_env(database_name)
        self.pool = ["--pool", "solo"] if processes <= 1 else ["--pool", "prefork", "--concurrency", str(processes)]
        self.process: subprocess.Popen | None = None
        self.log_path = Path(f"/tmp/cms-test-worker-{os.getpid()}.log")  # noqa: S108

    def start(self, timeout: float = 30.0) -> None:
        log = open(self.log_path, "wb")  # noqa: SIM115
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", *self.pool, "--loglevel", "INFO",
             "--queues", settings.CELERY_TASK_DEFAULT_QUEUE, "--without-gossip", "--without-mingle",
             "--without-heartbeat"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"celery worker exited: {self.log_path.read_text()[-2000:]}")
            if b"ready." in self.log_path.read_bytes():
                return
            time.sleep(0.1)
        raise RuntimeError("celery worker did not become ready")

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
        self.log_path.unlink(missing_ok=True)
