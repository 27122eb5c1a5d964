"""Which replica answers a company's read (apps/core/replicas.py), without a cluster: the real
streaming replica is in test_replicas.py (make test-scale)."""
from __future__ import annotations

import time

from apps.core import replicas
from apps.core.redis_conn import client


def test_wal_positions_compare_as_numbers():
    assert replicas.lsn("0/16B3748") < replicas.lsn("0/16B3750") < replicas.lsn("1/0")
    assert replicas.lsn(None) == 0


def test_a_company_reads_a_replica_only_once_it_has_replayed_its_last_write(settings, monkeypatch):
    settings.DB_REPLICA_ALIASES = ["replica0"]
    settings.DB_REPLICA_CHECK_SECONDS = 3600
    monkeypatch.setitem(replicas._health, "replica0", (True, time.monotonic(), replicas.lsn("0/5000")))
    client().set(replicas._key("t_a"), replicas.lsn("0/4000"))
    client().set(replicas._key("t_b"), replicas.lsn("0/6000"))
    assert replicas.read_alias("t_a") == "replica0"
    assert replicas.read_alias("t_b") is None  # its write is not replayed there yet: the primary
    assert replicas.read_alias("t_never_written") == "replica0"


def test_an_unhealthy_replica_or_none_configured_means_the_primary(settings, monkeypatch):
    settings.DB_REPLICA_ALIASES = []
    assert replicas.read_alias("t_a") is None
    settings.DB_REPLICA_ALIASES = ["replica0"]
    settings.DB_REPLICA_CHECK_SECONDS = 3600
    monkeypatch.setitem(replicas._health, "replica0", (False, time.monotonic(), replicas.lsn("9/0")))
    assert replicas.read_alias("t_a") is None
