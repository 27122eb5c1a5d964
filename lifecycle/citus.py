"""Citus schema-based sharding (docs/scaling.md), when the database is a Citus coordinator; a
no-op on one PostgreSQL.

- Every company schema (and the template, and each spare) is a distributed schema: all its
  tables on one worker node (deploy/citus/setup.sql turns `citus.enable_schema_based_sharding` on).
- The public tables that company tables are joined with (apps.core.sharding.REFERENCE_TABLES)
  become reference tables, copied to every node: `migrate_schemas` makes them so after
  migrating the public schema (reference_tables_ensure).
- A company moves between workers online (company_move, `manage.py tenant_move`): Citus copies
  its schema with logical replication while it is read and written, then switches over.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from django.db import InternalError, connection

from apps.core.sharding import REFERENCE_TABLES


def citus_active() -> bool:
    """True when the database runs the citus extension (the coordinator of a cluster)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus')")
        return bool(cursor.fetchone()[0])


def reference_tables_ensure() -> list[str]:
    """Make each public table of REFERENCE_TABLES a Citus reference table (tables they point at
    first). Returns those it made; [] on one PostgreSQL or when all already are."""
    if not citus_active():
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, (SELECT count(*) FROM pg_constraint f WHERE f.conrelid = c.oid AND f.contype = 'f' "
            "AND f.confrelid <> c.oid) FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace "
            "AND c.relkind = 'r' AND c.relname = ANY(%s) "
            "AND NOT EXISTS (SELECT 1 FROM pg_dist_partition d WHERE d.logicalrelid = c.oid AND d.partmethod = 'n' "
            "AND d.repmodel = 't')",
            [sorted(REFERENCE_TABLES)])
        todo = [name for name, _ in sorted(cursor.fetchall(), key=lambda row: (row[1], row[0]))]
        for name in todo:
            cursor.execute("SELECT create_reference_table(%s)", [f"public.{name}"])
    return todo


@dataclass(frozen=True)
class Node:
    host: str
    port: int

    def __str__(self) -> str:
        return f"{self.host}:{self.port}"


def company_node(schema_name: str) -> Node | None:
    """The worker holding a company's schema (None: not a distributed schema, or no Citus)."""
    if not citus_active():
        return None
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT n.nodename, n.nodeport FROM pg_dist_schema s "
            "JOIN pg_dist_partition d ON d.colocationid = s.colocationid "
            "JOIN pg_dist_shard h ON h.logicalrelid = d.logicalrelid "
            "JOIN pg_dist_placement p ON p.shardid = h.shardid "
            "JOIN pg_dist_node n ON n.groupid = p.groupid WHERE s.schemaid = to_regnamespace(%s)",
            [schema_name])
        rows = cursor.fetchall()
    if not rows:
        return None
    if len(rows) > 1:
        raise RuntimeError(f"schema {schema_name} has shards on {len(rows)} nodes")
    return Node(rows[0][0], rows[0][1])


def worker_nodes() -> list[Node]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT nodename, nodeport FROM pg_dist_node WHERE noderole = 'primary' AND isactive "
                       "AND shouldhaveshards AND groupid <> 0 ORDER BY nodeid")
        return [Node(host, port) for host, port in cursor.fetchall()]


# A move by logical replication ends with a catch-up to the source's WAL as far as it is written
# (pg_current_wal_lsn), then switches over and drops the source's copy. With synchronous_commit off,
# a commit is acknowledged before its WAL is written: a write answered just before the switch-over
# can be past that point, stays on the old copy and is lost with it. Such a move is refused.
UNSAFE_MOVE = ("{node} runs with synchronous_commit = off for this database: a write acknowledged just before the "
               "switch-over of an online move could stay on its old copy and be lost. Set synchronous_commit to "
               "on (or local) on that worker and reload it, or move with --mode block_writes.")


def _commits_unwritten(node: Node) -> bool:
    """True when a session of this database on the worker `node` commits with synchronous_commit off
    (the setting of the server, the database or the role, as the coordinator's connections get it)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT nodename, nodeport, success, result FROM run_command_on_workers('SHOW synchronous_commit')")
        return any(success and result == "off" and Node(host, port) == node
                   for host, port, success, result in cursor.fetchall())


LEFTOVER = "leftover from the previous move could not be cleaned up"  # Citus's refusal
LEFTOVER_WAIT_SECONDS = 120


def company_move(schema_name: str, target: Node, *, mode: str = "auto") -> float:
    """Move a company's schema (every table of it: they are colocated, one shard each) to
    `target`, online: with `mode` auto or force_logical Citus copies the shards by logical
    replication while the company is read and written, and blocks its writes only for the
    switch-over at the end. Returns the seconds it took; 0 when it is already there."""
    source = company_node(schema_name)
    if source is None:
        raise ValueError(f"{schema_name} is not a distributed schema (is this a Citus coordinator?)")
    if source == target:
        return 0.0
    if target not in worker_nodes():
        raise ValueError(f"{target} is not an active worker node")
    if mode != "block_writes" and _commits_unwritten(source):
        raise ValueError(UNSAFE_MOVE.format(node=source))
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT min(h.shardid) FROM pg_dist_schema s JOIN pg_dist_partition d ON d.colocationid = s.colocationid "
            "JOIN pg_dist_shard h ON h.logicalrelid = d.logicalrelid WHERE s.schemaid = to_regnamespace(%s)",
            [schema_name])
        shard = cursor.fetchone()[0]
        started = time.monotonic()
        while True:
            try:
                cursor.execute("SELECT citus_move_shard_placement(%s, %s, %s, %s, %s, "
                               "shard_transfer_mode => %s::citus.shard_transfer_mode)",
                               [shard, source.host, source.port, target.host, target.port, mode])
                return time.monotonic() - started
            except InternalError as exc:
                # Moved back soon after a move: the copy that move left on `target` is dropped by
                # Citus's maintenance daemon once no query uses it (seconds); until then Citus
                # refuses to move there. Wait for it, then say so.
                if LEFTOVER not in str(exc):
                    raise
                if time.monotonic() - started > LEFTOVER_WAIT_SECONDS:
                    raise ValueError(f"{target} still holds this company's copy from an earlier move, in use for "
                                     f"{LEFTOVER_WAIT_SECONDS} s: try again later") from exc
                time.sleep(2)
