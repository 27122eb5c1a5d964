"""Read replicas: a real streaming replica (initdb, then pg_basebackup -R from the system's
PostgreSQL binaries, private ports) of a private primary, with gunicorn on both
(DATABASE_URL = the primary, DATABASE_REPLICA_URLS = the replica)."""
from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
import requests

from apps.core.tests.hardening.services import Gunicorn, PrivatePostgres, PrivateReplica, migrate, postgres_bin
from conftest import ROOT, child_process_env

pytestmark = [pytest.mark.skipif(postgres_bin() is None, reason="PostgreSQL server binaries not found"),
              pytest.mark.timeout(400), pytest.mark.scale]

SEED = """
import json
from apps.core.testing import create_tenant, host_of
from apps.content.tests.factories import make_post
out = []
for name in ("a", "b"):
    tenant = create_tenant()
    make_post(tenant, f"Post of {name}", slug="same", status="published")
    out.append({"host": host_of(tenant), "key": tenant.api_key, "schema": tenant.schema_name,
                "subdomain": tenant.subdomain})
print("SEEDED " + json.dumps(out))
"""

ADD = """
from tenants.models import Client
from apps.content.tests.factories import make_post
make_post(Client.objects.get(subdomain="{subdomain}"), "{title}", slug="{slug}", status="published")
"""


def _shell(env: dict, code: str) -> str:
    result = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def _reads(replica: PrivateReplica, schema: str) -> int:
    """Scans of the company's post table on the replica (its own statistics)."""
    time.sleep(1.2)  # backends flush their statistics at most once a second
    return replica.sql_value("cms", f"SELECT COALESCE(seq_scan, 0) + COALESCE(idx_scan, 0) FROM pg_stat_user_tables "
                                    f"WHERE schemaname = '{schema}' AND relname = 'content_post'")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    primary = PrivatePostgres().init().start()
    replica = None
    server = None
    try:
        primary.createdb("cms")
        env = child_process_env("cms", DATABASE_URL=primary.url("cms"), DB_POOL_CHECK="0")
        migrate(env)
        tenants = json.loads(_shell(env, SEED).split("SEEDED ", 1)[1])
        replica = PrivateReplica().init_from(primary).start()
        app_env = {**env, "DATABASE_REPLICA_URLS": replica.url("cms"), "DB_REPLICA_MAX_LAG": "1",
                   "DB_REPLICA_CHECK_SECONDS": "0.2", "PUBLIC_API_CACHE": "0", "DB_CONN_MAX_AGE": "0"}
        server = Gunicorn(app_env, workers=1, threads=4, log=tmp_path_factory.mktemp("replica") / "gunicorn.log").start()
        yield primary, replica, server, env, tenants
    finally:
        if server:
            server.stop()
        if replica:
            replica.cleanup()
        primary.cleanup()


def _titles(server, tenant, path="/api/v1/posts") -> list[str]:
    response = requests.get(server.base_url + path, headers={"Host": tenant["host"], "x-api-key": tenant["key"]},
                            timeout=30)
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    return [post["title"] for post in data["posts"]] if "posts" in data else [data["post"]["title"]]


def test_public_reads_are_served_by_the_replica_per_company(cluster):
    primary, replica, server, env, tenants = cluster
    a, b = tenants
    assert replica.sql_value("postgres", "SELECT pg_is_in_recovery()") is True
    before = {t["schema"]: _reads(replica, t["schema"]) for t in tenants}
    for _ in range(3):
        assert _titles(server, a) == ["Post of a"]
        assert _titles(server, b) == ["Post of b"]
        assert _titles(server, a, "/api/v1/posts/slug/same") == ["Post of a"]
        assert _titles(server, b, "/api/v1/posts/slug/same") == ["Post of b"]
    # The replica's own statistics count the reads, in each company's schema.
    for tenant in tenants:
        wanted = before[tenant["schema"]] + 6
        # An idle backend flushes its statistics within PostgreSQL's idle interval (10 s), not at once.
        deadline = time.monotonic() + 15
        while (reads := _reads(replica, tenant["schema"])) < wanted and time.monotonic() < deadline:
            pass
        assert reads >= wanted, (reads, wanted)


def test_writes_go_to_the_primary_and_reach_the_replica(cluster):
    primary, replica, server, env, tenants = cluster
    a = tenants[0]
    _shell(env, ADD.format(subdomain=a["subdomain"], title="Written", slug="written"))
    deadline = time.monotonic() + 5
    while "Written" not in _titles(server, a) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "Written" in _titles(server, a)
    # Streaming replication is asynchronous: the read above may come from the primary (a replica
    # behind it is skipped) before the replica has replayed the write; it must get there soon.
    written = f"SELECT count(*) FROM \"{a['schema']}\".content_post WHERE slug = 'written'"
    deadline = time.monotonic() + 5
    while replica.sql_value("cms", written) != 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert replica.sql_value("cms", written) == 1


def test_a_lagging_replica_is_skipped(cluster):
    primary, replica, server, env, tenants = cluster
    a = tenants[0]
    replica.sql("postgres", "SELECT pg_wal_replay_pause()")
    try:
        _shell(env, ADD.format(subdomain=a["subdomain"], title="While paused", slug="while-paused"))
        time.sleep(1.5)  # more than DB_REPLICA_MAX_LAG behind
        assert "While paused" in _titles(server, a)  # read on the primary
        assert replica.sql_value("cms", f"SELECT count(*) FROM \"{a['schema']}\".content_post "
                                        "WHERE slug = 'while-paused'") == 0
    finally:
        replica.sql("postgres", "SELECT pg_wal_replay_resume()")


def test_a_stopped_replica_falls_back_to_the_primary(cluster):
    primary, replica, server, env, tenants = cluster
    a, b = tenants
    replica.stop(mode="immediate")
    try:
        for _ in range(3):
            assert _titles(server, a)[-1] == "Post of a" and _titles(server, b) == ["Post of b"]
        assert _titles(server, b, "/api/v1/posts/slug/same") == ["Post of b"]
    finally:
        replica.start()
