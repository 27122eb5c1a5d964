"""The content version through a Redis outage (apps.core.content_version): a bump Redis missed is
done by the outbox once Redis answers, and no version number is used twice after Redis lost its
keys. (The public API over real HTTP: apps/public_api/tests/test_outage_freshness.py.)"""
from __future__ import annotations

import socket

import pytest
from django.db import connection
from django.test import override_settings

from apps.core import content_version, redis_conn, testing
from apps.core.models import OutboxMessage
from apps.core.outbox import Later
from apps.core.tasks import content_version_bump as bump_task


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def schema(tenant):
    connection.set_tenant(tenant)
    yield tenant.schema_name
    connection.set_schema_to_public()


def _redis_down():
    return override_settings(REDIS_URL=f"redis://127.0.0.1:{closed_port()}/0")


def test_a_bump_redis_missed_is_done_by_the_outbox_once_redis_answers(schema, django_capture_on_commit_callbacks):
    before = content_version.content_version_get(schema)
    with _redis_down(), django_capture_on_commit_callbacks(execute=True):
        content_version.content_version_bump(schema, edge_tags=["p-0123456789ab"])
    [row] = OutboxMessage.objects.filter(task=content_version.BUMP_TASK)
    assert (row.args, row.schema_name, row.dispatches) == ([schema, ["p-0123456789ab"]], schema, 0)
    assert content_version.content_version_get(schema) == before  # not bumped yet

    with _redis_down(), pytest.raises(Later):  # the relay sends it before Redis answers: tried again
        bump_task.run(*row.args)
    bump_task.run(*row.args)  # Redis answers
    assert content_version.content_version_get(schema) == before + 1


def test_a_version_number_is_not_used_again_after_redis_lost_it(schema):
    """Redis restarted empty (or the key evicted): the company's next versions are new numbers,
    not the ones counted before (what workers kept under those would be used again)."""
    seen = set()
    for _ in range(3):
        seen.add(content_version.content_version_get(schema))
        content_version.content_version_bump(schema)  # (outside a transaction: at once)
        seen.add(content_version.content_version_get(schema))
    redis_conn.client().delete(content_version._key(schema))  # Redis lost it
    after = {content_version.content_version_get(schema)}
    content_version.content_version_bump(schema)
    after.add(content_version.content_version_get(schema))
    assert not after & seen and min(after) > max(seen)


def test_admins_see_the_waiting_refresh_among_outgoing_messages(tenant, schema, django_capture_on_commit_callbacks):
    with _redis_down(), django_capture_on_commit_callbacks(execute=True):
        content_version.content_version_bump(schema)
    admin = testing.Api(tenant, user=testing.tenant_admin(tenant))
    kinds = admin.get("/api/outgoing").json()["kinds"]
    assert [(kind["label"], kind["waiting"] + kind["sending"]) for kind in kinds
            if kind["kind"] == content_version.BUMP_TASK] == [("Content API refreshes", 1)]
