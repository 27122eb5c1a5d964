"""Webhook deliveries through the outbox (apps.core.outbox): written in the writing transaction,
sent once whatever happens after the commit, retried through the outbox's due time."""
from __future__ import annotations

import subprocess
import sys
import time
from datetime import timedelta

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.core.models import OutboxMessage
from apps.core.outbox import outbox_relay
from apps.webhooks import services
from apps.webhooks.models import WebhookDelivery

CRASH_AFTER_COMMIT = """
import os, sys
import django
django.setup()
from django.db import transaction
from django_tenants.utils import schema_context
from apps.content import services as content

with schema_context(sys.argv[1]):
    with transaction.atomic():
        # Registered first, so it runs first once the transaction commits: the process dies there,
        # before any other after-commit work (as a web server SIGKILLed at that moment would).
        transaction.on_commit(lambda: os._exit(0))
        content.tag_create(name="Crash", slug="crash")
print("not reached")
"""


def _wait(predicate, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


@pytest.mark.django_db(transaction=True)
def test_a_delivery_survives_a_crash_right_after_the_commit(make_tenant, receiver, celery_worker_process):
    """Today: the deliveries were created by an after-commit hook; a process that died between the
    commit and that hook left the tag created and no delivery at all."""
    from conftest import child_process_env

    tenant = make_tenant()
    with schema_context(tenant.schema_name):
        endpoint = services.webhook_endpoint_create(url=receiver.url, events=["tag.created"])
    receiver.secret = endpoint.secret
    env = child_process_env(connection.settings_dict["NAME"], OUTBOX_LEASE_SECONDS="1")
    crashed = subprocess.run([sys.executable, "-c", CRASH_AFTER_COMMIT, tenant.schema_name], env=env,
                             capture_output=True, text=True, timeout=60)
    assert crashed.returncode == 0 and "not reached" not in crashed.stdout, crashed.stderr[-2000:]

    with schema_context(tenant.schema_name):
        [delivery] = WebhookDelivery.objects.all()
    assert delivery.status == "pending" and delivery.payload["data"]["tag"]["slug"] == "crash"
    time.sleep(1.1)  # the lease of the message that was never sent
    assert outbox_relay() == 1
    [got] = receiver.wait_for(1)
    assert got["valid"] and got["json"]["event"] == "tag.created" and got["headers"]["Webhook-Id"] == str(
        delivery.event_id)
    with schema_context(tenant.schema_name):
        assert _wait(lambda: WebhookDelivery.objects.get(pk=delivery.pk).status == "succeeded")
    assert _wait(lambda: not OutboxMessage.objects.filter(key=services.delivery_key(delivery.pk)).exists())
    time.sleep(1)
    assert len(receiver.received) == 1


@pytest.mark.django_db(transaction=True)
def test_a_long_retry_waits_in_the_outbox_not_in_the_broker(make_tenant, receiver, settings):
    """Today: the next try was a Celery countdown; with Redis, one longer than the visibility timeout
    is delivered again and again while it waits."""
    from apps.webhooks.tasks import deliver

    settings.WEBHOOK_RETRY_BASE_SECONDS = 600
    settings.WEBHOOK_RETRY_JITTER = 0
    tenant = make_tenant()
    queue = redis.Redis.from_url(settings.REDIS_URL)
    with schema_context(tenant.schema_name):
        endpoint = services.webhook_endpoint_create(url=receiver.url, events=["tag.created"])
        delivery = services.webhook_test_send(endpoint=endpoint)
        queue.delete(settings.CELERY_TASK_DEFAULT_QUEUE)  # what the commit sent: run here instead
        receiver.statuses = [503]
        key = services.delivery_key(delivery.pk)
        deliver.apply(args=[str(delivery.pk)], headers={"outbox_key": key})
        delivery.refresh_from_db()
    assert [r["status"] for r in receiver.received] == [503]
    assert delivery.status == "pending" and delivery.next_attempt_at > timezone.now() + timedelta(seconds=590)
    row = OutboxMessage.objects.get(key=key)
    assert row.dispatches == 0 and abs((row.due_at - delivery.next_attempt_at).total_seconds()) < 2
    assert queue.llen(settings.CELERY_TASK_DEFAULT_QUEUE) == 0  # nothing waits in the broker
    assert outbox_relay() == 0  # not due yet

    # A stray copy of the message (a redelivery) neither sends early nor drops the retry.
    with schema_context(tenant.schema_name):
        deliver.apply(args=[str(delivery.pk)], headers={"outbox_key": key})
    assert len(receiver.received) == 1 and OutboxMessage.objects.filter(key=key).exists()

    # Its time has come: the relay sends it, the delivery succeeds once, the row goes.
    with schema_context(tenant.schema_name):
        WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())
    OutboxMessage.objects.filter(key=key).update(due_at=timezone.now())
    assert outbox_relay() == 1
    assert queue.llen(settings.CELERY_TASK_DEFAULT_QUEUE) == 1
    with schema_context(tenant.schema_name):
        deliver.apply(args=[str(delivery.pk)], headers={"outbox_key": key})
        delivery.refresh_from_db()
    assert delivery.status == "succeeded" and [r["status"] for r in receiver.received] == [503, 200]
    assert not OutboxMessage.objects.filter(key=key).exists()


@pytest.mark.django_db(transaction=True)
def test_an_answered_delivery_is_recorded_through_a_database_outage_not_sent_again(make_tenant, receiver,
                                                                                  monkeypatch):
    """The database went away between the receiver's answer and the record. Today: the try failed
    unrecorded and the delivery was sent again."""
    from django.db import OperationalError

    tenant = make_tenant()
    with schema_context(tenant.schema_name):
        endpoint = services.webhook_endpoint_create(url=receiver.url, events=["tag.created"])
        delivery = services.webhook_test_send(endpoint=endpoint)
        save = WebhookDelivery.save
        failures = []

        def save_after_a_restart(self, *args, **kwargs):
            if not failures:
                failures.append(self.pk)
                raise OperationalError("terminating connection due to administrator command")
            return save(self, *args, **kwargs)

        monkeypatch.setattr(WebhookDelivery, "save", save_after_a_restart)
        assert services.webhook_delivery_attempt(delivery_id=str(delivery.pk)) is None
        delivery.refresh_from_db()
        assert failures == [delivery.pk] and delivery.status == "succeeded" and delivery.attempt == 1
        assert services.webhook_delivery_attempt(delivery_id=str(delivery.pk)) is None  # sent again: nothing
    assert len(receiver.received) == 1
