"""Outgoing email: the one way the product sends a message.

`email_queue` renders a template of apps/core/templates/email/ (a subject, a plain-text and an
HTML part, each with the company's name and links to the company's own host), stores the message
(tenants.OutgoingEmail) and queues `core.send_email` after commit. `email_send` is that task's
body: idempotent (a message already sent is never sent again; the row is locked while it is sent,
so two deliveries of the task cannot both send) and it raises on SMTP and network errors, which the
task retries with backoff (EMAIL_MAX_ATTEMPTS, EMAIL_RETRY_BASE_SECONDS, EMAIL_RETRY_MAX_SECONDS)."""
from __future__ import annotations

import logging
import random
import uuid
from email.utils import make_msgid

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import connection, transaction
from django.template.loader import render_to_string
from django.utils import timezone

from apps.core.task_queue import send_by_name
from tenants.models import Client, OutgoingEmail

logger = logging.getLogger(__name__)

SEND_TASK = "core.send_email"
PRODUCT_NAME = "CMS"


def email_queue(*, kind: str, to: str, context: dict, company_name: str = "", base_url: str = "") -> OutgoingEmail:
    """Render email/<kind>_subject.txt, <kind>.txt and <kind>.html and queue the message. `context`
    gets `company_name` (the product's name on the root domain) and `base_url` (the host links
    point to) added."""
    context = {**context, "company_name": company_name or PRODUCT_NAME, "base_url": base_url,
               "product_name": PRODUCT_NAME}
    subject = " ".join(render_to_string(f"email/{kind}_subject.txt", context).split())
    text = render_to_string(f"email/{kind}.txt", context)
    html = render_to_string(f"email/{kind}.html", context)
    domain = settings.DEFAULT_FROM_EMAIL.rsplit("@", 1)[-1].strip("> ") or settings.ROOT_DOMAIN
    schema = connection.schema_name if connection.schema_name != "public" else ""
    email = OutgoingEmail.objects.create(
        message_id=make_msgid(idstring=uuid.uuid4().hex[:12], domain=domain), kind=kind, schema_name=schema,
        to=to, subject=subject[:255], text=text, html=html,
    )
    transaction.on_commit(lambda: send_by_name(SEND_TASK, args=[str(email.pk)]))
    return email


def email_send(*, email_id: str) -> bool:
    """Send one queued message unless it was sent already. True when it was sent now; a failure
    is recorded (attempts, last_error) and raised for the task to retry."""
    with transaction.atomic():
        email = OutgoingEmail.objects.select_for_update().filter(pk=email_id).first()
        if email is None or email.sent_at is not None or email.failed_at is not None:
            return False
        email.attempts += 1
        message = EmailMultiAlternatives(
            subject=email.subject, body=email.text, from_email=settings.DEFAULT_FROM_EMAIL, to=[email.to],
            headers={"Message-ID": email.message_id}, connection=get_connection(timeout=settings.EMAIL_TIMEOUT),
        )
        message.attach_alternative(email.html, "text/html")
        error = None
        try:
            message.send(fail_silently=False)
        except Exception as exc:  # noqa: BLE001 - recorded, then raised after the commit
            error = exc
            email.last_error = str(exc)[:500]
        else:
            email.sent_at = timezone.now()
            email.last_error = ""
        email.save(update_fields=["sent_at", "attempts", "last_error"])
    if error is not None:
        raise error
    logger.info("email %s (%s) sent", email.pk, email.kind)
    return True


def email_give_up(*, email_id: str, error: str) -> None:
    """The last try failed: the message is marked failed (no further tries)."""
    OutgoingEmail.objects.filter(pk=email_id, sent_at__isnull=True).update(
        failed_at=timezone.now(), last_error=error[:500])
    logger.error("email %s not sent after %s tries: %s", email_id, settings.EMAIL_MAX_ATTEMPTS, error)


def retry_delay(retries: int) -> float:
    """Seconds before the next try: doubling from EMAIL_RETRY_BASE_SECONDS up to the cap, plus up
    to a quarter of it at random (tries of many messages do not arrive together)."""
    delay = min(settings.EMAIL_RETRY_MAX_SECONDS, settings.EMAIL_RETRY_BASE_SECONDS * (2 ** retries))
    return delay * (1 + random.random() * 0.25)  # noqa: S311 - jitter, not a secret


def company_of_connection() -> tuple[str, str]:
    """(name, base URL) of the company whose schema the connection is on; the product's name and
    the root domain's address on the public schema."""
    from tenants.addresses import root_base_url, tenant_base_url

    schema = connection.schema_name
    tenant = getattr(connection, "tenant", None)
    if not schema or schema == "public":
        return PRODUCT_NAME, root_base_url()
    if not isinstance(tenant, Client):  # schema_context (tasks, commands) sets a stand-in
        tenant = Client.objects.get(schema_name=schema)
    return tenant.name, tenant_base_url(tenant.subdomain)
