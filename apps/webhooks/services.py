"""Writes of the webhooks app: endpoints (admins), events (emitted by the content and media
services once their transaction commits) and deliveries (sent by Celery, with retries)."""
from __future__ import annotations

import json
import logging
import random
import secrets
import uuid
from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import F
from django.utils import timezone

from apps.accounts.models import User
from apps.content.post_fields import iso
from apps.core.email import company_of_connection, email_queue
from apps.core.errors import ValidationFailed
from apps.core.outbox import Busy, outbox_add, record_sent
from apps.core.permissions import Role
from apps.plans.metering import usage_count
from apps.plans.rules import current_company, feature_check, feature_enabled, plan_release, plan_spend
from apps.webhooks import network, selectors
from apps.webhooks.models import EVENTS, TEST_EVENT, WebhookDelivery, WebhookEndpoint
from tenants.models import Client

logger = logging.getLogger(__name__)

DELIVER_TASK = "webhooks.deliver"
ENDPOINT_DISABLED = "Endpoint is disabled"
# A delivery pending when the company's plan lost the `webhooks` feature is not sent (it can be sent
# again from the dashboard once the plan includes webhooks again).
FEATURE_OFF = "Not sent: the company's plan does not include webhooks"
FEATURE = "webhooks"
UNKNOWN_EVENT = "Unknown event: {event}"
EARLY_TOLERANCE = timedelta(seconds=1)  # a try sent for its next_attempt_at may arrive this early (clocks)


def _new_secret() -> str:
    return "whsec_" + secrets.token_urlsafe(32)


# --- endpoints -----------------------------------------------------------------------------------
def _check_url(url: str) -> str:
    try:
        return network.check_url_at_save(url or "")
    except ValueError as exc:
        raise ValidationFailed(str(exc), field="url") from exc


def _check_events(events: list[str]) -> list[str]:
    if not events:
        raise ValidationFailed("Choose at least one event", field="events")
    for event in events:
        if event not in EVENTS:
            raise ValidationFailed(UNKNOWN_EVENT.format(event=event), field="events")
    return [event for event in EVENTS if event in set(events)]  # the catalogue's order, no repeats


@transaction.atomic
def webhook_endpoint_create(*, url: str, events: list[str], description: str = "",
                            active: bool = True) -> WebhookEndpoint:
    feature_check(FEATURE)
    url, events = _check_url(url), _check_events(events)
    plan_spend("webhook_endpoints")
    return WebhookEndpoint.objects.create(
        url=url, events=events, description=description.strip(), active=active, secret=_new_secret(),
    )


@transaction.atomic
def webhook_endpoint_update(*, endpoint: WebhookEndpoint, url: str | None = None, events: list[str] | None = None,
                            description: str | None = None, active: bool | None = None) -> WebhookEndpoint:
    """None keeps a value. Turning an endpoint on again clears its failures and `disabledReason`."""
    feature_check(FEATURE)
    endpoint = selectors.endpoint_get(str(endpoint.pk), for_update=True)
    if url is not None:
        endpoint.url = _check_url(url)
    if events is not None:
        endpoint.events = _check_events(events)
    if description is not None:
        endpoint.description = description.strip()
    if active is not None:
        if active and not endpoint.active:
            endpoint.consecutive_failures = 0
            endpoint.disabled_reason = ""
        endpoint.active = active
    endpoint.save()
    return endpoint


@transaction.atomic
def webhook_endpoint_delete(*, endpoint: WebhookEndpoint) -> None:
    selectors.endpoint_get(str(endpoint.pk), for_update=True).delete()
    plan_release("webhook_endpoints")


@transaction.atomic
def webhook_secret_rotate(*, endpoint: WebhookEndpoint) -> WebhookEndpoint:
    feature_check(FEATURE)
    endpoint = selectors.endpoint_get(str(endpoint.pk), for_update=True)
    endpoint.secret = _new_secret()
    endpoint.save(update_fields=["secret", "updated_at"])
    return endpoint


# --- events --------------------------------------------------------------------------------------
def event_emit(*, event: str, object_id=None, data: dict | None = None) -> None:
    """THE way an event leaves the product: call it inside the service's transaction, once its
    writes are done. Each active endpoint subscribed to `event` gets a delivery, written with its
    outbox row in that transaction (a crash after the commit loses none) and sent by Celery after
    the commit. The object is read now (`object_id`: what the website will read once the
    transaction commits; this transaction sees its own writes), or given as `data` (an object
    being deleted). Nothing is sent when the transaction rolls back, nor while the company's plan
    does not include webhooks (no delivery is written)."""
    if event not in EVENTS:
        raise ValueError(event)
    if not feature_enabled(current_company(), FEATURE):
        return
    targets = selectors.endpoints_subscribed(event)
    if not targets:
        return
    kind = event.split(".", 1)[0]
    if data is None:
        data = selectors.event_object(kind, object_id)
        if data is None:  # gone again in this transaction: its own event follows
            return
    payload = _payload(event, {kind: data}, timezone.now())
    with transaction.atomic(savepoint=False):
        deliveries = WebhookDelivery.objects.bulk_create(
            [WebhookDelivery(endpoint=endpoint, event=event, event_id=uuid.UUID(payload["id"]), payload=payload)
             for endpoint in targets])
        for delivery in deliveries:
            _enqueue(delivery)
        usage_count("webhook_deliveries", len(deliveries))


def _subdomain() -> str:
    """The company of the connection's schema (schema_context sets no full tenant)."""
    tenant = getattr(connection, "tenant", None)
    if getattr(tenant, "subdomain", None):
        return tenant.subdomain

    return Client.objects.filter(schema_name=connection.schema_name).values_list("subdomain", flat=True).first() or ""


def _payload(event: str, data: dict, occurred_at) -> dict:
    return {"id": str(uuid.uuid4()), "event": event, "company": {"subdomain": _subdomain()},
            "occurredAt": iso(occurred_at), "data": data}


def delivery_key(delivery_id) -> str:
    """The outbox key of a delivery's sending (apps.core.outbox)."""
    return f"webhook:{delivery_id}"


def _enqueue(delivery: WebhookDelivery) -> WebhookDelivery:
    """Its outbox row, in the caller's transaction: sent after the commit, or by the relay."""
    outbox_add(task=DELIVER_TASK, args=[str(delivery.pk)], key=delivery_key(delivery.pk))
    return delivery


@transaction.atomic
def webhook_test_send(*, endpoint: WebhookEndpoint) -> WebhookDelivery:
    """A `webhook.test` event to this endpoint only (also when it is turned off)."""
    feature_check(FEATURE)
    payload = _payload(TEST_EVENT, {"message": "This is a test event"}, timezone.now())
    return _enqueue(WebhookDelivery.objects.create(
        endpoint=endpoint, event=TEST_EVENT, event_id=uuid.UUID(payload["id"]), payload=payload))


@transaction.atomic
def webhook_delivery_redeliver(*, delivery: WebhookDelivery) -> WebhookDelivery:
    """The same event (same body and Webhook-Id) sent again as a new delivery."""
    feature_check(FEATURE)
    return _enqueue(WebhookDelivery.objects.create(
        endpoint_id=delivery.endpoint_id, event=delivery.event, event_id=delivery.event_id,
        payload=delivery.payload))


# --- sending -------------------------------------------------------------------------------------
def retry_delay(attempt: int) -> float:
    """Seconds before try `attempt + 1`: exponential from WEBHOOK_RETRY_BASE_SECONDS, capped, plus
    up to WEBHOOK_RETRY_JITTER of it at random (full jitter on the top part)."""
    delay = min(settings.WEBHOOK_RETRY_BASE_SECONDS * (2 ** (attempt - 1)), settings.WEBHOOK_RETRY_MAX_SECONDS)
    return delay + random.uniform(0, delay * settings.WEBHOOK_RETRY_JITTER)  # noqa: S311 - not a secret


def _tell_admins_disabled(endpoint: WebhookEndpoint) -> None:
    """Email every active admin of the company that the endpoint was turned off (in the transaction
    that turns it off: sent once, after it commits). The dashboard shows them a banner too."""
    company_name, base_url = company_of_connection()
    for username, address in (User.objects.filter(role=Role.ADMIN, status=User.Status.ACTIVE)
                              .order_by("created_at").values_list("username", "email")):
        email_queue(kind="webhook_disabled", to=address, company_name=company_name, base_url=base_url,
                    context={"username": username, "endpoint_url": endpoint.url, "reason": endpoint.disabled_reason,
                             "url": f"{base_url}/dashboard/settings/webhooks/{endpoint.pk}"})


def _record_failure(endpoint_id, error: str) -> bool:
    """Count a failed try; the endpoint is turned off at WEBHOOK_DISABLE_AFTER_FAILURES in a row.
    True when it is (still) active."""
    with transaction.atomic():
        WebhookEndpoint.objects.filter(pk=endpoint_id).update(consecutive_failures=F("consecutive_failures") + 1)
        endpoint = WebhookEndpoint.objects.select_for_update().filter(pk=endpoint_id).first()
        if endpoint is None:
            return False
        limit = settings.WEBHOOK_DISABLE_AFTER_FAILURES
        if endpoint.active and endpoint.consecutive_failures >= limit:
            endpoint.active = False
            endpoint.disabled_reason = (
                f"Turned off on {timezone.now().strftime('%Y-%m-%d %H:%M UTC')} after {endpoint.consecutive_failures} "
                f"failed deliveries in a row (last error: {error[:200]}). Fix the receiver and turn it on again.")
            endpoint.save(update_fields=["active", "disabled_reason", "updated_at"])
            logger.warning("webhook endpoint %s disabled after %d failures", endpoint.pk, endpoint.consecutive_failures)
            _tell_admins_disabled(endpoint)
        return endpoint.active


_RECORDED = ("attempt", "last_attempt_at", "response_status", "response_excerpt", "duration_ms", "error",
             "next_attempt_at", "status")


def webhook_delivery_attempt(*, delivery_id: str) -> float | None:
    """One try of a pending delivery; returns the seconds to wait before the next try
    (`next_attempt_at`), or None when it is finished (sent, failed for good, or not pending:
    idempotent by the delivery). outbox.Busy: another run is trying it now, or its next try is
    not due yet (a message delivered twice never sends early nor twice)."""
    delivery, result, delay = _attempt(delivery_id)
    if delivery is None:
        return None
    endpoint = delivery.endpoint
    if not result.error:
        WebhookEndpoint.objects.filter(pk=endpoint.pk).exclude(consecutive_failures=0).update(consecutive_failures=0)
        return None
    still_active = _record_failure(endpoint.pk, result.error)
    if delay is not None and not still_active and delivery.event != TEST_EVENT:
        WebhookDelivery.objects.filter(pk=delivery.pk).update(status=WebhookDelivery.Status.FAILED,
                                                              next_attempt_at=None)
        return None
    return delay


def _attempt(delivery_id: str):
    """The try itself, under the delivery's row lock: (delivery, result, delay), or Nones when there
    is nothing to do. A database that goes away once the receiver has answered is waited for
    (outbox.record_sent): the answer is recorded, or the delivery would be sent again."""
    delivery = result = delay = None
    try:
        with transaction.atomic():
            delivery = (WebhookDelivery.objects.select_for_update(skip_locked=True).select_related("endpoint")
                        .filter(pk=delivery_id, status=WebhookDelivery.Status.PENDING).first())
            if delivery is None:
                if WebhookDelivery.objects.filter(pk=delivery_id, status=WebhookDelivery.Status.PENDING).exists():
                    raise Busy(delivery_id)
                return None, None, None
            if delivery.next_attempt_at is not None and delivery.next_attempt_at > timezone.now() + EARLY_TOLERANCE:
                raise Busy(delivery_id)
            endpoint = delivery.endpoint
            if not feature_enabled(current_company(), FEATURE):
                delivery.status, delivery.error = WebhookDelivery.Status.FAILED, FEATURE_OFF
                delivery.next_attempt_at = None
                delivery.save(update_fields=["status", "error", "next_attempt_at"])
                return None, None, None
            if not endpoint.active and delivery.event != TEST_EVENT:
                delivery.status, delivery.error = WebhookDelivery.Status.FAILED, ENDPOINT_DISABLED
                delivery.save(update_fields=["status", "error"])
                return None, None, None
            from apps.webhooks.sending import post_signed  # the worker's module: see its docstring

            body = json.dumps(delivery.payload, separators=(",", ":"), ensure_ascii=False).encode()
            result = post_signed(url=endpoint.url, secret=endpoint.secret, webhook_id=str(delivery.event_id),
                                 body=body)
            delivery.attempt += 1
            delivery.last_attempt_at = timezone.now()
            delivery.response_status = result.status
            delivery.response_excerpt = result.excerpt
            delivery.duration_ms = result.duration_ms
            delivery.error = result.error
            delivery.next_attempt_at = None
            if not result.error:
                delivery.status = WebhookDelivery.Status.SUCCEEDED
            elif result.retryable and delivery.attempt < settings.WEBHOOK_MAX_ATTEMPTS:
                delay = retry_delay(delivery.attempt)
                delivery.next_attempt_at = delivery.last_attempt_at + timedelta(seconds=delay)
            else:
                delivery.status = WebhookDelivery.Status.FAILED
            delivery.save()
    except DatabaseError:
        if result is None:
            raise  # nothing was sent: the task fails, the outbox sends it again
        fields = {name: getattr(delivery, name) for name in _RECORDED}
        record_sent(lambda: WebhookDelivery.objects.filter(pk=delivery.pk, status=WebhookDelivery.Status.PENDING)
                    .update(**fields), what=f"webhook delivery {delivery.pk}")
    return delivery, result, delay


def webhook_deliveries_prune(*, days: int) -> int:
    deleted, _ = WebhookDelivery.objects.filter(created_at__lt=timezone.now() - timedelta(days=days)).delete()
    return deleted
