"""The suite's pytest plugin (registered by the top-level conftest.py; docs/testing.md).

- The run's PostgreSQL: a private, tuned cluster started by the first pytest process and handed
  to xdist workers and child processes through DATABASE_URL (TEST_POSTGRES=shared: DATABASE_URL
  as given).
- Each test database gets spare company schemas (TEST_SPARE_SCHEMAS, 6 by default; 0: every
  company cloned from the template) and its catalogs vacuumed when dead rows pile up
  (TEST_CATALOG_VACUUM=0: only counted).
- At the end: the slowest tests (--slowest N), the time per test by tenth of the run and the
  suite's wall time; --suite-report PATH writes the same as JSON.
"""
from __future__ import annotations

import os

import pytest

from apps.core.testsuite import database
from apps.core.testsuite.report import SuiteClock

SPARES_VARIABLE = "TEST_SPARE_SCHEMAS"
VACUUM_VARIABLE = "TEST_CATALOG_VACUUM"  # 0: only count the catalogs' dead rows


class _Run:
    """What this process knows of the run."""

    cluster: database.PrivateCluster | None = None
    database_note = ""
    clock: SuiteClock | None = None
    # in the processes that run tests (xdist workers, or the only process)
    pool = None
    janitor: database.CatalogJanitor | None = None
    blocker = None
    active = False  # the test database is there
    errors: list[str] = []
    worker_figures: list[dict] = []


def _is_worker(config) -> bool:
    return hasattr(config, "workerinput")


def pytest_addoption(parser):
    group = parser.getgroup("suite", "the suite's own figures (docs/testing.md)")
    group.addoption("--slowest", type=int, default=15, metavar="N",
                    help="list the N slowest tests (setup + call + teardown) at the end; 0: none")
    group.addoption("--suite-report", metavar="PATH", default=None,
                    help="write the run's figures (tests, wall time, time per test by tenth, slowest) as JSON")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    if _is_worker(config):
        return
    _Run.clock = SuiteClock()
    option = config.option
    if option.help or option.version or option.collectonly:
        return
    from django.conf import settings

    url = os.environ.get("DATABASE_URL") or settings.DATABASE_URL
    owner = os.environ.get(database.OWNER_VARIABLE, "")
    if database.mode() == "shared":
        _Run.database_note = f"PostgreSQL: DATABASE_URL ({_server(url)}; {database.MODE_VARIABLE}=shared)"
        return
    if owner.isdigit() and database._alive(int(owner)):
        _Run.database_note = f"PostgreSQL: the private cluster of process {owner} ({_server(url)})"
        return
    from apps.core.tests.hardening.services import postgres_bin

    if postgres_bin() is None:
        _Run.database_note = (f"PostgreSQL: DATABASE_URL ({_server(url)}): no server binaries (initdb) for a private "
                              f"cluster; install postgresql, or set {database.MODE_VARIABLE}=shared to choose this")
        return
    cluster = database.start_private(url)
    _Run.cluster = cluster
    os.environ["DATABASE_URL"] = cluster.url
    os.environ[database.OWNER_VARIABLE] = str(os.getpid())
    # This process read the settings already (pytest-django loads them first) but has not connected.
    settings.DATABASE_URL = cluster.url
    settings.DATABASES["default"].update(HOST="127.0.0.1", PORT=cluster.port, USER="postgres", PASSWORD="")
    _Run.database_note = (f"PostgreSQL: a private cluster for this run on 127.0.0.1:{cluster.port} "
                          f"({database.MODE_VARIABLE}=shared: DATABASE_URL instead)")


def _server(url: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return f"{parts.hostname}:{parts.port or 5432}{parts.path}"


def pytest_unconfigure(config):
    if _Run.cluster is not None:
        _Run.cluster.stop()
        _Run.cluster = None
        os.environ.pop(database.OWNER_VARIABLE, None)


def pytest_report_header(config):
    return [_Run.database_note] if _Run.database_note else []


# --- the test database: spare companies, catalog vacuums -----------------------------------------
@pytest.fixture(scope="session")
def django_db_keepdb(django_db_keepdb):
    """The private cluster is removed whole at the end: dropping its test databases first (a
    checkpoint each) would be time spent for nothing. --create-db still makes them anew."""
    return django_db_keepdb or (database.mode() == "private" and bool(os.environ.get(database.OWNER_VARIABLE)))


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, with the run's spare company schemas in it."""
    from apps.core.testsuite.companies import TestCompanyPool

    _Run.blocker = django_db_blocker
    _Run.janitor = database.CatalogJanitor(vacuum=os.environ.get(VACUUM_VARIABLE, "1") != "0")
    with django_db_blocker.unblock():
        size = int(os.environ.get(SPARES_VARIABLE, "6"))
        if size > 0:
            pool = TestCompanyPool(size)
            pool.prepare()
            _Run.pool = pool
    _Run.active = True
    yield
    _Run.active = False  # the test database is dropped next


def company_pool():
    """The spare schemas of this process's test database (None when TEST_SPARE_SCHEMAS=0)."""
    return _Run.pool


@pytest.fixture
def no_spare_schemas(django_db_setup, django_db_blocker):
    """Companies this test makes are cloned from the template (or taken from spares it makes
    itself), never taken from the run's spare schemas."""
    if _Run.pool is not None:
        with django_db_blocker.unblock():
            _Run.pool.hide()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    from apps.core import testing

    testing.company_seconds.clear()
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    result = yield
    if _Run.active:
        _after_test(item)
    return result


def _after_test(item) -> None:
    from django.db import connection

    with _Run.blocker.unblock():
        try:
            if connection.in_atomic_block:
                return
            if _Run.pool is not None:
                _Run.pool.refresh()
            with connection.cursor() as cursor:
                _Run.janitor.after_test(cursor)
        except Exception as exc:  # noqa: BLE001 - a test left the connection broken: start a new one
            _Run.errors.append(f"{item.nodeid}: {type(exc).__name__}: {exc}"[:300])
            connection.close()
        finally:
            connection.set_schema_to_public()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if call.when == "teardown":
        from apps.core import testing

        if testing.company_seconds:
            report.user_properties.append(("company_seconds", [round(s, 4) for s in testing.company_seconds]))
            testing.company_seconds.clear()
        janitor = _Run.janitor
        if _Run.active and janitor is not None and janitor.tests % janitor.every == 0:
            report.user_properties.append(("pg_class_dead", janitor.last_pg_class_dead))
    return report


def _figures() -> dict:
    janitor = _Run.janitor
    return {
        "catalog_vacuums": janitor.vacuums if janitor else 0,
        "catalog_vacuum_seconds": round(janitor.vacuum_seconds, 1) if janitor else 0.0,
        "vacuum_refused": janitor.failed if janitor else None,
        "spares_cloned_during_run": _Run.pool.cloned if _Run.pool else 0,
        "errors": _Run.errors[:20],
    }


# --- the report -----------------------------------------------------------------------------------
def pytest_runtest_logreport(report):
    if _Run.clock is not None:
        _Run.clock.add(report)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session):
    if _is_worker(session.config):
        session.config.workeroutput["testsuite"] = _figures()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    figures = getattr(node, "workeroutput", {}).get("testsuite")
    if figures:
        _Run.worker_figures.append(figures)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    clock = _Run.clock
    if clock is None or _is_worker(config) or not clock.done:
        return
    figures = _Run.worker_figures or [_figures()]
    clock.extra = {
        "database": _Run.database_note,
        "workers": len(_Run.worker_figures) or 1,
        "catalog_vacuums": sum(f["catalog_vacuums"] for f in figures),
        "catalog_vacuum_seconds": round(sum(f["catalog_vacuum_seconds"] for f in figures), 1),
        "spares_cloned_during_run": sum(f["spares_cloned_during_run"] for f in figures),
    }
    clock.notes = [_Run.database_note] if _Run.database_note else []
    clock.notes.append(f"catalog vacuums between tests: {clock.extra['catalog_vacuums']} "
                       f"({clock.extra['catalog_vacuum_seconds']} s); spare company schemas cloned during the run: "
                       f"{clock.extra['spares_cloned_during_run']}")
    for f in figures:
        if f.get("vacuum_refused"):
            clock.notes.append(f["vacuum_refused"])
        for error in f.get("errors", []):
            clock.notes.append(f"after-test upkeep failed: {error}")
    slowest = config.getoption("slowest")
    terminalreporter.write_sep("=", f"slowest {slowest} tests" if slowest else "suite time")
    lines = clock.lines(slowest)
    if not slowest:
        lines = lines[lines.index("") + 1:]
    for line in lines:
        terminalreporter.write_line(line)
    path = config.getoption("suite_report")
    if path:
        clock.write(path, max(slowest, 40))
        terminalreporter.write_line(f"figures written to {path}")
