"""Two senders and one exchange with the provider that lasts past the lease (docs/newsletters.md#exactly-once).

The SMTP server holds its answer to the first email until the test releases it: sender A claims
every row and waits in that exchange while its lease runs out; sender B then starts, claims what
it may and sends it; then A's exchange ends and A goes on. Each member must be emailed once,
counted at the SMTP server, and no row's record is written over by the sender that lost it."""
from __future__ import annotations

import logging
import threading
import time
from collections import Counter

import pytest
from django.db import connection
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.core.testing import Api, tenant_admin
from apps.members.models import Member
from apps.newsletters import delivery
from apps.newsletters.models import Delivery, Send
from apps.newsletters.services import newsletters_default
from apps.newsletters.tests.helpers import post as make_post

MEMBERS = 6
LEASE = 1


def _send(tenant, smtp_server, settings) -> str:
    """A send of a post to MEMBERS subscribers, prepared (its deliveries written), nothing sent yet."""
    settings.NEWSLETTER_BATCH_LEASE_SECONDS, settings.NEWSLETTER_BATCH = LEASE, 100
    with schema_context(tenant.schema_name):
        [newsletter] = newsletters_default()
        members = Member.objects.bulk_create([Member(email=f"m{n}@example.com", created_at=timezone.now())
                                              for n in range(MEMBERS)])
        Member.newsletters.through.objects.bulk_create([Member.newsletters.through(
            member_id=m.pk, newsletter_id=newsletter.pk) for m in members])
    post = make_post(tenant)
    api = Api(tenant, user=tenant_admin(tenant))
    send_id = api.post(f"/api/posts/{post.id}/send", {"newsletterId": str(newsletter.id)}).json()["send"]["id"]
    with schema_context(tenant.schema_name):
        assert delivery.send_prepare(Send.objects.get(pk=send_id)).status == Send.Status.SENDING
    smtp_server.hold_first = True
    return send_id


class _Run(threading.Thread):
    """delivery.send_deliver with one sender, in a thread of its own (its own database connection)."""

    def __init__(self, tenant, send_id):
        super().__init__(daemon=True)
        self.tenant, self.send_id, self.sent, self.error = tenant, send_id, None, None

    def run(self):
        try:
            with schema_context(self.tenant.schema_name):
                self.sent = delivery.send_deliver(Send.objects.get(pk=self.send_id), threads=1)
        except BaseException as exc:  # noqa: BLE001 - the test reports it
            self.error = exc
        finally:
            connection.close()


def _received(smtp_server) -> Counter:
    return Counter(str(message["To"]) for message in smtp_server.messages)


def _everyone_once(smtp_server) -> None:
    received = _received(smtp_server)
    assert set(received) == {f"m{n}@example.com" for n in range(MEMBERS)}, received
    assert received.most_common(1)[0][1] == 1, received  # nobody twice


@pytest.mark.timeout(60)
def test_an_exchange_past_the_lease_is_not_sent_again_by_another_sender(smtp_server, make_tenant, transactional_db,
                                                                       settings):
    tenant = make_tenant()
    send_id = _send(tenant, smtp_server, settings)
    first = _Run(tenant, send_id)
    first.start()
    assert smtp_server.holding.wait(10)  # A claimed every row and is in its first exchange
    time.sleep(LEASE + 0.5)  # A's lease has run out while the provider has not answered
    second = _Run(tenant, send_id)
    second.start()
    second.join(20)
    assert second.error is None and second.sent == MEMBERS - 1  # every row but the one A is sending
    smtp_server.release.set()
    first.join(20)
    assert first.error is None and first.sent == 1  # its exchange, then nothing: B had the others
    _everyone_once(smtp_server)
    with schema_context(tenant.schema_name):
        assert Delivery.objects.filter(send_id=send_id, status="sent").count() == MEMBERS
        assert delivery.send_finish(Send.objects.get(pk=send_id))


def _backend_in_exchange() -> int:
    """The PostgreSQL backend of the sender waiting for the provider (the only other connection)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                       "AND pid <> pg_backend_pid() AND backend_type = 'client backend'")
        [[pid]] = cursor.fetchall()
        return pid


@pytest.mark.timeout(60)
def test_a_row_taken_over_after_its_sender_lost_the_database_is_not_written_over(smtp_server, make_tenant,
                                                                                 transactional_db, settings, caplog):
    """A's connection to PostgreSQL dies during its exchange (its row is no longer held): B claims
    the row when its lease ends and sends it (that member is emailed twice, the one case left, with
    one Message-ID); A's record of its answer finds the row B's and leaves it, counted and logged."""
    tenant = make_tenant()
    send_id = _send(tenant, smtp_server, settings)
    first = _Run(tenant, send_id)
    first.start()
    assert smtp_server.holding.wait(10)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [_backend_in_exchange()])
    time.sleep(LEASE + 0.5)
    second = _Run(tenant, send_id)
    second.start()
    second.join(20)
    assert second.error is None and second.sent == MEMBERS
    with schema_context(tenant.schema_name):
        marks = dict(Delivery.objects.filter(send_id=send_id).values_list("id", "sent_at"))
    with caplog.at_level(logging.WARNING, logger="apps.newsletters.delivery"):
        smtp_server.release.set()
        first.join(20)
    assert first.error is None and first.sent == 0  # its one email was recorded by B, not by A
    with schema_context(tenant.schema_name):
        assert dict(Delivery.objects.filter(send_id=send_id).values_list("id", "sent_at")) == marks  # B's marks kept
        assert set(Delivery.objects.filter(send_id=send_id).values_list("status", flat=True)) == {"sent"}
    assert any("another sender" in record.getMessage() for record in caplog.records), caplog.text
    received = _received(smtp_server)
    assert set(received) == {f"m{n}@example.com" for n in range(MEMBERS)}
    [(twice, count)] = [(to, count) for to, count in received.items() if count > 1]
    assert count == 2
    ids = {str(message["Message-ID"]) for message in smtp_server.messages if str(message["To"]) == twice}
    assert len(ids) == 1  # the copy says it is one


@pytest.mark.timeout(60)
def test_sender_threads_give_the_cpu_to_the_rest_of_the_machine(smtp_server, make_tenant, transactional_db, settings,
                                                                 monkeypatch):
    """Each sender thread of a send runs NEWSLETTER_SEND_NICE lower in priority (its own nice value,
    Linux) so requests served beside it run first; the thread that started the send keeps its own."""
    import os
    import sys

    if not sys.platform.startswith("linux"):
        pytest.skip("per-thread priorities are Linux's")
    settings.NEWSLETTER_SEND_NICE = 7
    tenant = make_tenant()
    send_id = _send(tenant, smtp_server, settings)
    smtp_server.hold_first = False
    seen, sending_send = [], delivery.sending.send

    def noting(provider, message):
        seen.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        return sending_send(provider, message)

    monkeypatch.setattr(delivery.sending, "send", noting)
    own = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    with schema_context(tenant.schema_name):
        assert delivery.send_deliver(Send.objects.get(pk=send_id), threads=2) == MEMBERS
    assert len(seen) == MEMBERS and set(seen) == {min(19, own + 7)}
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == own
    _everyone_once(smtp_server)
