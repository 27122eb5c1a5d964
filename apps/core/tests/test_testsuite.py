"""The suite's own upkeep (apps/core/testsuite, docs/testing.md): its private PostgreSQL, companies
from spare schemas, catalog vacuums and the figures printed at the end of a run."""
from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.db import connection, transaction
from django_tenants.utils import schema_exists

from apps.core import testing
from apps.core.testsuite import database
from apps.core.testsuite.companies import PREFIX
from apps.core.testsuite.plugin import company_pool
from apps.core.testsuite.report import SuiteClock

private = pytest.mark.skipif(database.mode() != "private", reason="TEST_POSTGRES=shared: the tests use DATABASE_URL")


@private
def test_the_tests_run_on_a_private_cluster_tuned_for_throwaway_data(db):
    assert connection.settings_dict["PORT"] == int(os.environ["DATABASE_URL"].rsplit(":", 1)[1].split("/")[0])
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('fsync'), current_setting('autovacuum'), current_setting('wal_level'), "
                       "current_setting('data_directory')")
        fsync, autovacuum, wal_level, data = cursor.fetchone()
    assert (fsync, autovacuum, wal_level) == ("off", "on", "minimal")
    assert Path(data).parent.name.startswith(database.PREFIX)


def test_a_cluster_left_behind_by_a_killed_run_is_removed_and_a_live_one_is_kept():
    gone = subprocess.Popen(["true"])
    gone.wait()
    dead_dir = Path(tempfile.mkdtemp(prefix=database.PREFIX))
    (dead_dir / "owner").write_text(str(gone.pid))
    live_dir = Path(tempfile.mkdtemp(prefix=database.PREFIX))
    (live_dir / "owner").write_text(str(os.getpid()))
    try:
        removed = database.sweep_stale()
        assert dead_dir in removed and not dead_dir.exists()
        assert live_dir.exists()
    finally:
        for directory in (dead_dir, live_dir):
            subprocess.run(["rm", "-rf", str(directory)], check=False)


def test_a_company_takes_a_spare_and_the_rollback_gives_it_back(db):
    from tenants.models import SpareSchema

    pool = company_pool()
    if pool is None:
        pytest.skip("TEST_SPARE_SCHEMAS=0")
    spares = set(SpareSchema.objects.filter(schema_name__startswith=PREFIX).values_list("schema_name", flat=True))
    assert len(spares) == pool.size
    with pytest.raises(RuntimeError), transaction.atomic():
        tenant = testing.create_tenant()
        left = set(SpareSchema.objects.filter(schema_name__startswith=PREFIX).values_list("schema_name", flat=True))
        assert len(left) == pool.size - 1 and left < spares
        assert not schema_exists((spares - left).pop()) and schema_exists(tenant.schema_name)
        raise RuntimeError("roll back")
    assert set(SpareSchema.objects.filter(schema_name__startswith=PREFIX)
               .values_list("schema_name", flat=True)) == spares
    assert all(schema_exists(name) for name in spares)


@pytest.mark.django_db(transaction=True)
def test_after_a_flush_the_template_and_the_spares_are_there_again():
    from tenants.models import ProvisioningTemplate, SpareSchema

    pool = company_pool()
    if pool is None:
        pytest.skip("TEST_SPARE_SCHEMAS=0")
    template = ProvisioningTemplate.objects.get()
    used = testing.create_tenant()  # commits: one spare used up
    SpareSchema.objects.all().delete()  # what the flush after a transaction=True test does
    ProvisioningTemplate.objects.all().delete()
    pool.refresh()
    restored = ProvisioningTemplate.objects.get()
    assert (restored.ddl, restored.migrations_digest) == (template.ddl, template.migrations_digest)
    names = list(SpareSchema.objects.filter(schema_name__startswith=PREFIX).values_list("schema_name", flat=True))
    assert len(names) == pool.size and all(schema_exists(name) for name in names)
    assert used.schema_name not in names
    used.delete(force_drop=True)


class FakeCursor:
    def __init__(self, dead):
        self.dead, self.executed = dead, []

    def execute(self, sql, params=None):
        self.executed.append(sql)
        if sql.startswith("VACUUM"):
            self.dead = {name: 0 for name in self.dead}

    def fetchall(self):
        return sorted(self.dead.items())


def test_catalogs_past_the_threshold_are_vacuumed_every_n_tests():
    janitor = database.CatalogJanitor(threshold=2000, every=10)
    cursor = FakeCursor({"pg_class": 109_010, "pg_depend": 2500, "pg_type": 150})
    for _ in range(9):
        janitor.after_test(cursor)
    assert cursor.executed == []
    janitor.after_test(cursor)
    assert "VACUUM pg_catalog.pg_class, pg_catalog.pg_depend" in cursor.executed
    assert janitor.vacuums == 1 and janitor.last_pg_class_dead == 0

    counting = database.CatalogJanitor(threshold=2000, every=1, vacuum=False)
    cursor = FakeCursor({"pg_class": 109_010})
    counting.after_test(cursor)
    assert not [sql for sql in cursor.executed if sql.startswith("VACUUM")]
    assert counting.last_pg_class_dead == 109_010


def test_the_catalogs_dead_rows_are_read_from_the_server(db):
    with connection.cursor() as cursor:
        dead = database.CatalogJanitor().dead_rows(cursor)
    assert {"pg_class", "pg_attribute", "pg_depend"} <= set(dead)


def _report(nodeid, when, duration, **extra):
    return SimpleNamespace(nodeid=nodeid, when=when, duration=duration, failed=False, skipped=False,
                           user_properties=list(extra.items()))


def test_the_end_of_a_run_shows_the_slowest_tests_and_the_time_per_test_by_tenth():
    clock = SuiteClock()
    for number in range(20):
        nodeid = f"apps/x/tests/test_x.py::test_{number}"
        clock.add(_report(nodeid, "setup", 0.1, company_seconds=[0.05 * (number + 1)]))
        clock.add(_report(nodeid, "call", number / 10))
        clock.add(_report(nodeid, "teardown", 0.0, pg_class_dead=number * 100))
    figures = clock.as_dict(slowest=3)
    assert figures["tests"] == 20
    assert [test["nodeid"].rsplit("_", 1)[1] for test in figures["slowest"]] == ["19", "18", "17"]
    tenths = figures["tenths"]
    assert [row["tests"] for row in tenths] == [2] * 10
    assert tenths[0]["mean_seconds_per_test"] == pytest.approx(0.15)
    assert tenths[-1]["mean_seconds_per_test"] == pytest.approx(1.95)
    assert tenths[-1]["median_company_ms"] == 975 and tenths[-1]["pg_class_dead_rows_max"] == 1900
    lines = clock.lines(slowest=3)
    assert lines[1].split()[:4] == ["2.00", "0.10", "1.90", "0.00"]
    assert lines[-1].startswith("suite time: 20 tests in ")


def test_a_tenth_holding_one_server_test_shows_it_in_the_mean_not_in_the_median():
    clock = SuiteClock()
    for number in range(30):  # three tests a tenth; the last tenth holds a 20-second server test
        nodeid = f"apps/x/tests/test_x.py::test_{number}"
        clock.add(_report(nodeid, "setup", 0.0))
        clock.add(_report(nodeid, "call", 20.0 if number == 29 else 0.1))
        clock.add(_report(nodeid, "teardown", 0.0))
    first, last = clock.as_dict(slowest=0)["tenths"][0], clock.as_dict(slowest=0)["tenths"][-1]
    assert last["mean_seconds_per_test"] > 6 > first["mean_seconds_per_test"]
    assert last["median_seconds_per_test"] == first["median_seconds_per_test"] == pytest.approx(0.1)
    row = [line for line in clock.lines(slowest=0) if line.split()[:1] == ["10"]][0]
    assert row.split()[3:5] == ["6.733", "0.100"]  # mean, then median
