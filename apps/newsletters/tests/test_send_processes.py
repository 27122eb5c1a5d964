"""A send shared by the worker's processes (NEWSLETTER_SEND_PROCESSES): its task keeps its share of
the sender threads and asks another process to send with the rest; every member still gets one
email, and the send is `sent` only once the helper's rows are."""
from __future__ import annotations

import re
import time
from collections import Counter

import pytest
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.core.outbox import outbox_relay
from apps.core.testing import Api, tenant_admin
from apps.members.models import Member
from apps.newsletters import delivery
from apps.newsletters.models import Delivery, Send
from apps.newsletters.services import newsletters_default
from apps.newsletters.tests.helpers import post as make_post
from apps.newsletters.tests.test_send_worker_killed import transactional_db_name

MEMBERS = 600


def test_threads_are_shared_out_over_processes():
    assert delivery.shares(4, 2) == [2, 2]
    assert delivery.shares(3, 2) == [2, 1]
    assert delivery.shares(1, 2) == [1]  # never a process without a thread
    assert delivery.shares(4, 1) == [4]
    assert delivery.shares(0, 0) == [1]


def _members(tenant, count: int):
    with schema_context(tenant.schema_name):
        [newsletter] = newsletters_default()
        members = Member.objects.bulk_create([Member(email=f"p{n:04d}@example.com", created_at=timezone.now())
                                              for n in range(count)])
        Member.newsletters.through.objects.bulk_create([Member.newsletters.through(
            member_id=m.pk, newsletter_id=newsletter.pk) for m in members])
    return newsletter


def _sent(tenant, send_id) -> int:
    with schema_context(tenant.schema_name):
        return Delivery.objects.filter(send_id=send_id, status="sent").count()


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_a_send_runs_on_two_worker_processes_and_leaves_room_for_other_tasks(smtp_server, monkeypatch, make_tenant,
                                                                             transactional_db):
    """The help task sends for NEWSLETTER_HELP_SECONDS, then queues itself again behind what came
    meanwhile: a test email asked for early in the send arrives long before the send ends."""
    from conftest import WorkerProcess

    smtp_server.delay = 0.008
    for name, value in {"NEWSLETTER_SEND_CONNECTIONS": "2", "NEWSLETTER_SEND_PROCESSES": "2",
                        "NEWSLETTER_BATCH": "10", "NEWSLETTER_HELP_SECONDS": "0.5"}.items():
        monkeypatch.setenv(name, value)
    tenant = make_tenant()
    newsletter = _members(tenant, MEMBERS)
    post = make_post(tenant)
    worker = WorkerProcess(transactional_db_name(), processes=2)
    worker.start()
    try:
        admin = tenant_admin(tenant)
        api = Api(tenant, user=admin)
        send_id = api.post(f"/api/posts/{post.id}/send", {"newsletterId": str(newsletter.id)}).json()["send"]["id"]
        outbox_relay()
        deadline = time.monotonic() + 60
        while _sent(tenant, send_id) < 40 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert api.post(f"/api/posts/{post.id}/send/test",
                        {"newsletterId": str(newsletter.id)}).status_code == 202
        outbox_relay()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            with schema_context(tenant.schema_name):
                if Send.objects.get(pk=send_id).status == "sent":
                    break
            time.sleep(0.2)
        with schema_context(tenant.schema_name):
            assert Send.objects.get(pk=send_id).status == "sent"
            # sent only once nothing was pending any more: the helper's rows included
            assert Delivery.objects.filter(send_id=send_id, status="sent").count() == MEMBERS
        log = worker.log_path.read_text()
    finally:
        worker.stop()
    messages = list(smtp_server.messages)
    [test_at] = [n for n, message in enumerate(messages) if str(message["Subject"]).startswith("[Test]")]
    assert str(messages[test_at]["To"]) == admin.email
    assert test_at < MEMBERS // 2, f"the test email came after {test_at} of the send's {MEMBERS} emails"
    received = Counter(str(message["To"]) for n, message in enumerate(messages) if n != test_at)
    assert set(received) == {f"p{n:04d}@example.com" for n in range(MEMBERS)}
    assert max(received.values()) == 1
    # The help task ran in the other process and sent part of the emails itself.
    helped = [int(n) for n in re.findall(r"newsletters\.send_help\[[^\]]+\] succeeded in [0-9.]+s: (\d+)", log)]
    assert helped and 0 < sum(helped) < MEMBERS, log[-3000:]


def test_a_help_task_sends_only_for_a_send_that_is_sending(make_tenant, smtp_server, db):
    tenant = make_tenant()
    newsletter = _members(tenant, 3)
    post = make_post(tenant)
    api = Api(tenant, user=tenant_admin(tenant))
    send_id = api.post(f"/api/posts/{post.id}/send", {"newsletterId": str(newsletter.id)}).json()["send"]["id"]
    with schema_context(tenant.schema_name):
        assert delivery.send_help(send_id=send_id, threads=2) == 0  # queued: not prepared yet
        send = delivery.send_prepare(Send.objects.select_related("newsletter").get(pk=send_id))
        assert send.status == Send.Status.SENDING and Delivery.objects.filter(send_id=send_id).count() == 3
        Send.objects.filter(pk=send_id).update(status=Send.Status.FAILED)
        assert delivery.send_help(send_id=send_id, threads=2) == 0  # pending rows, but the send failed
        assert smtp_server.messages == []
        Send.objects.filter(pk=send_id).update(status=Send.Status.SENDING)
        assert delivery.send_help(send_id=send_id, threads=1) == 3  # one sender: on this connection
    assert len(smtp_server.messages) == 3
