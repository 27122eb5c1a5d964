"""A send through a real Celery worker (two sender threads) that is killed twice in the middle:
the outbox sends the task again, the rows the dead worker had claimed are claimed again when
their lease ends, and every member receives their email, each with one Message-ID, counted at
the SMTP server. An email accepted by the server just before a kill and not yet marked sent goes
again with the same Message-ID (docs/newsletters.md#exactly-once): at most one per sender thread
and kill."""
from __future__ import annotations

import time

from collections import Counter

import pytest
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.core.outbox import outbox_relay
from apps.core.testing import Api, tenant_admin
from apps.members.models import Member
from apps.newsletters.models import Delivery, Send
from apps.newsletters.services import newsletters_default
from apps.newsletters.tests.helpers import post as make_post

MEMBERS = 300
THREADS = 2
KILLS = 2


def _sent(tenant, send_id) -> int:
    with schema_context(tenant.schema_name):
        return Delivery.objects.filter(send_id=send_id, status="sent").count()


def _status(tenant, send_id) -> str:
    with schema_context(tenant.schema_name):
        return Send.objects.get(pk=send_id).status


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_every_member_gets_one_email_when_the_worker_is_killed_mid_send(smtp_server, monkeypatch, make_tenant,
                                                                      transactional_db, settings):
    from conftest import WorkerProcess  # the suite's worker handle (conftest.py)

    smtp_server.delay = 0.02  # ~20 ms a message: long enough to be caught in the middle
    for name, value in {"NEWSLETTER_SEND_CONNECTIONS": str(THREADS), "NEWSLETTER_BATCH": "10",
                        "NEWSLETTER_BATCH_LEASE_SECONDS": "3", "NEWSLETTER_SEND_LEASE_SECONDS": "3"}.items():
        monkeypatch.setenv(name, value)
    tenant = make_tenant()
    with schema_context(tenant.schema_name):
        [newsletter] = newsletters_default()
        members = Member.objects.bulk_create([Member(email=f"m{n:04d}@example.com", created_at=timezone.now())
                                              for n in range(MEMBERS)])
        Member.newsletters.through.objects.bulk_create([Member.newsletters.through(
            member_id=m.pk, newsletter_id=newsletter.pk) for m in members])
    post = make_post(tenant)
    worker = WorkerProcess(transactional_db_name())
    worker.start()
    try:
        api = Api(tenant, user=tenant_admin(tenant))
        send_id = api.post(f"/api/posts/{post.id}/send", {"newsletterId": str(newsletter.id)}).json()["send"]["id"]
        for kill in range(KILLS):
            target = (kill + 1) * MEMBERS // (KILLS + 2)
            deadline = time.monotonic() + 60
            while _sent(tenant, send_id) < target and time.monotonic() < deadline:
                time.sleep(0.05)
            worker.kill()  # SIGKILL: no goodbye, rows left claimed
            assert _status(tenant, send_id) == "sending" and _sent(tenant, send_id) < MEMBERS
            worker.start()
            time.sleep(3.5)  # the send's lease: the outbox sends the task again
            outbox_relay()
        deadline = time.monotonic() + 120
        while _status(tenant, send_id) != "sent" and time.monotonic() < deadline:
            time.sleep(0.5)
            outbox_relay()
        assert _status(tenant, send_id) == "sent"
    finally:
        worker.stop()
    received = Counter()
    ids_per_member: dict[str, set] = {}
    for message in smtp_server.messages:
        to = str(message["To"])
        received[to] += 1
        ids_per_member.setdefault(to, set()).add(str(message["Message-ID"]).strip())
    assert set(received) == {f"m{n:04d}@example.com" for n in range(MEMBERS)}  # nobody missed
    assert all(len(ids) == 1 for ids in ids_per_member.values())  # one email each, by Message-ID
    duplicates = sum(count - 1 for count in received.values())
    assert duplicates <= KILLS * THREADS, received.most_common(5)  # only the emails in flight at a kill
    with schema_context(tenant.schema_name):
        assert Delivery.objects.filter(send_id=send_id, status="sent").count() == MEMBERS


def transactional_db_name() -> str:
    from django.db import connection

    return connection.settings_dict["NAME"]



