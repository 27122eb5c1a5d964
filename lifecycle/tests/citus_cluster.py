"""A private three-node Citus cluster: a coordinator and two workers, each a PrivatePostgres
(initdb on a free port, shared_preload_libraries=citus), joined by deploy/citus/setup.sql with the
nodes' addresses as parameters. Used by lifecycle/tests/test_citus.py (make test-scale) and
bench/citus.py (make bench-citus). Nothing here imports Django."""
from __future__ import annotations

import subprocess
from pathlib import Path

from apps.core.tests.hardening.services import ROOT, PrivatePostgres, postgres_bin

DATABASE = "cms"
# Logical replication lets a company move between workers while it is written (an online move).
CITUS_SETTINGS = {
    "shared_preload_libraries": "citus",
    "wal_level": "logical",
    "max_replication_slots": "20",
    "max_wal_senders": "20",
    "max_worker_processes": "32",
    "citus.log_remote_commands": "off",
    # A commit is acknowledged once its WAL is written, as on a production worker: a move's last
    # catch-up waits for the source's written WAL (pg_current_wal_lsn), and tenant_move refuses to
    # move off a worker committing with synchronous_commit=off (docs/scaling.md).
    "synchronous_commit": "on",
}


def citus_missing() -> str | None:
    """Why a Citus cluster cannot start here, or None."""
    binaries = postgres_bin()
    if binaries is None:
        return "PostgreSQL server binaries (initdb) not found"
    library = binaries.parent / "lib" / "citus.so"
    if not library.exists():
        return f"Citus is not installed for this PostgreSQL ({library} missing): make citus installs it"
    return None


class CitusCluster:
    def __init__(self, *, workers: int = 2, durable: bool = False):
        self.durable = durable
        self.coordinator = PrivatePostgres(prefix="cms-citus-coord-", settings=CITUS_SETTINGS)
        self.workers = [PrivatePostgres(prefix=f"cms-citus-w{n + 1}-", settings=CITUS_SETTINGS)
                        for n in range(workers)]

    @property
    def nodes(self) -> list[PrivatePostgres]:
        return [self.coordinator, *self.workers]

    def url(self) -> str:
        return self.coordinator.url(DATABASE)

    def start(self) -> "CitusCluster":
        try:
            for node in self.nodes:
                node.init().start(durable=self.durable)
                node.createdb(DATABASE)
                node.sql(DATABASE, "CREATE EXTENSION citus")
            self.setup()
        except Exception:
            self.cleanup()
            raise
        return self

    def setup(self) -> None:
        """deploy/citus/setup.sql on the coordinator, the nodes as its parameters."""
        variables = {"coordinator_host": "127.0.0.1", "coordinator_port": self.coordinator.port}
        for n, worker in enumerate(self.workers, start=1):
            variables[f"worker{n}_host"] = "127.0.0.1"
            variables[f"worker{n}_port"] = worker.port
        command = [str(self.coordinator.bin / "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1",
                   "-h", "127.0.0.1", "-p", str(self.coordinator.port), "-U", "postgres", "-d", DATABASE,
                   "-f", str(ROOT / "deploy/citus/setup.sql")]
        for name, value in variables.items():
            command[1:1] = ["-v", f"{name}={value}"]
        result = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            raise RuntimeError(f"deploy/citus/setup.sql failed: {result.stderr[-3000:]}")

    def sql(self, query: str, params=()) -> list[tuple]:
        return self.coordinator.sql(DATABASE, query, params)

    def worker_of(self, schema: str) -> int | None:
        """The port of the worker holding a distributed schema (None: not distributed)."""
        rows = self.sql(
            "SELECT DISTINCT p.nodeport FROM pg_dist_schema s "
            "JOIN pg_dist_partition d ON d.colocationid = s.colocationid "
            "JOIN pg_dist_shard h ON h.logicalrelid = d.logicalrelid "
            "JOIN pg_dist_placement pl ON pl.shardid = h.shardid "
            "JOIN pg_dist_node p ON p.groupid = pl.groupid "
            "WHERE s.schemaid::regnamespace::text = quote_ident(%s)", (schema,))
        if not rows:
            return None
        assert len(rows) == 1, f"schema {schema} spread over nodes {rows}"
        return rows[0][0]

    def logs(self) -> str:
        return "\n".join(f"--- {node.log}\n{Path(node.log).read_text(errors='replace')[-4000:]}"
                         for node in self.nodes if Path(node.log).exists())

    def cleanup(self) -> None:
        for node in self.nodes:
            node.cleanup()
