"""Outgoing email: the one way the product sends a message.

`email_queue` renders a template of apps/core/templates/email/ (a subject, a plain-text and an
HTML part, each with the company's name and links to the company's own host), stores the message
(tenants.OutgoingEmail) and, in the same transaction, its outbox row (apps.core.outbox): the
`core.send_email` task is sent after the commit, or by the relay when the broker was down then or
the task did not finish (a worker killed while it held it). `email_send` is that task's body:
idempotent by the message (its Message-ID is fixed when it is queued; a message already sent is
never sent again; the row is locked while it is sent, so two deliveries of the task cannot both
send; the time between the SMTP server's acceptance and its record is one UPDATE and the COMMIT,
and a database that goes away then is waited for: outbox.record_sent).
A failed try is recorded (attempts, last_error) and tried again later through the outbox
(EMAIL_MAX_ATTEMPTS, EMAIL_RETRY_BASE_SECONDS, EMAIL_RETRY_MAX_SECONDS)."""
from __future__ import annotations

import hashlib
import logging
import random
import uuid
from email.utils import make_msgid

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import DatabaseError, connection, transaction
from django.template.loader import render_to_string
from django.utils import timezone

from apps.core import outbox
from apps.core.outbox import record_sent
from apps.core.selectors import get_or_404
from tenants.addresses import root_base_url, tenant_base_url
from tenants.models import Client, OutgoingEmail

logger = logging.getLogger(__name__)

SEND_TASK = "core.send_email"
PRODUCT_NAME = "CMS"


def _message_id(key: str | None, domain: str) -> str:
    if key is None:
        return make_msgid(idstring=uuid.uuid4().hex[:12], domain=domain)
    return f"<{hashlib.sha256(key.encode()).hexdigest()[:32]}@{domain}>"


def email_queue(*, kind: str, to: str, context: dict, company_name: str = "", base_url: str = "",
                key: str | None = None) -> OutgoingEmail:
    """Render email/<kind>_subject.txt, <kind>.txt and <kind>.html and queue the message. `context`
    gets `company_name` (the product's name on the root domain) and `base_url` (the host links
    point to) added. `key`: queue this message once (a second call with the same key returns the
    message queued by the first)."""
    domain = settings.DEFAULT_FROM_EMAIL.rsplit("@", 1)[-1].strip("> ") or settings.ROOT_DOMAIN
    message_id = _message_id(key, domain)
    if key is not None:
        existing = OutgoingEmail.objects.filter(message_id=message_id).first()
        if existing is not None:
            return existing
    context = {**context, "company_name": company_name or PRODUCT_NAME, "base_url": base_url,
               "product_name": PRODUCT_NAME}
    subject = " ".join(render_to_string(f"email/{kind}_subject.txt", context).split())
    text = render_to_string(f"email/{kind}.txt", context)
    html = render_to_string(f"email/{kind}.html", context)
    schema = connection.schema_name if connection.schema_name != "public" else ""
    with transaction.atomic(savepoint=False):  # the caller's transaction, or one of its own
        email = OutgoingEmail.objects.create(
            message_id=message_id, kind=kind, schema_name=schema, to=to, subject=subject[:255], text=text, html=html,
        )
        outbox.outbox_add(task=SEND_TASK, args=[str(email.pk)], key=f"email:{email.pk}")
    return email


def email_send(*, email_id: str) -> bool:
    """Send one queued message unless it was sent already (or given up). True when it was sent
    now. A failed try is recorded (attempts, last_error); then outbox.Later (the next try) or,
    after EMAIL_MAX_ATTEMPTS, the message is marked failed. outbox.Busy: another run is sending it."""
    backend = get_connection(timeout=settings.EMAIL_TIMEOUT)
    error = sent_at = None
    try:
        with transaction.atomic():
            email = OutgoingEmail.objects.select_for_update(skip_locked=True).filter(pk=email_id).first()
            if email is None:
                if OutgoingEmail.objects.filter(pk=email_id).exists():
                    raise outbox.Busy(email_id)
                return False
            if email.sent_at is not None or email.failed_at is not None:
                return False
            email.attempts += 1
            message = EmailMultiAlternatives(
                subject=email.subject, body=email.text, from_email=settings.DEFAULT_FROM_EMAIL, to=[email.to],
                headers={"Message-ID": email.message_id}, connection=backend,
            )
            message.attach_alternative(email.html, "text/html")
            try:
                backend.open()  # opened here, closed after the COMMIT: the QUIT is not in the window
                backend.send_messages([message])
            except Exception as exc:  # noqa: BLE001 - recorded; tried again later
                error = exc
                email.last_error = f"{exc.__class__.__name__}: {exc}"[:500]
                if email.attempts >= settings.EMAIL_MAX_ATTEMPTS:
                    email.failed_at = timezone.now()
            else:
                email.sent_at = sent_at = timezone.now()
                email.last_error = ""
            email.save(update_fields=["sent_at", "attempts", "last_error", "failed_at"])
    except DatabaseError:
        if sent_at is None:
            raise  # nothing went out: the task fails, the outbox sends it again
        # Accepted by the server, and the database went away before the record: record it anyway.
        record_sent(lambda: OutgoingEmail.objects.filter(pk=email.pk, sent_at__isnull=True).update(
            sent_at=sent_at, attempts=email.attempts, last_error=""), what=f"email {email.pk}")
    finally:
        try:
            backend.close()
        except Exception:  # noqa: BLE001 - the message's fate is recorded already
            logger.debug("closing the SMTP connection failed", exc_info=True)
    if error is None:
        logger.info("email %s (%s) sent", email.pk, email.kind)
        return True
    if email.failed_at is not None:
        logger.error("email %s not sent after %s tries: %s", email.pk, email.attempts, email.last_error)
        return False
    raise outbox.Later.after(retry_delay(email.attempts - 1), error=email.last_error)


def email_retry(*, email: OutgoingEmail) -> OutgoingEmail:
    """A message given up (or stuck) is tried again from its first try, with the same Message-ID."""
    with transaction.atomic():
        locked = OutgoingEmail.objects.select_for_update().get(pk=email.pk)
        if locked.sent_at is None:
            locked.failed_at = None
            locked.attempts = 0
            locked.save(update_fields=["failed_at", "attempts"])
            outbox.outbox_finish(key=f"email:{locked.pk}")
            outbox.outbox_add(task=SEND_TASK, args=[str(locked.pk)], key=f"email:{locked.pk}",
                              schema_name=locked.schema_name or "public")
    return locked


def retry_delay(retries: int) -> float:
    """Seconds before the next try: doubling from EMAIL_RETRY_BASE_SECONDS up to the cap, plus up
    to a quarter of it at random (tries of many messages do not arrive together)."""
    delay = min(settings.EMAIL_RETRY_MAX_SECONDS, settings.EMAIL_RETRY_BASE_SECONDS * (2 ** retries))
    return delay * (1 + random.random() * 0.25)  # noqa: S311 - jitter, not a secret


def company_of_connection() -> tuple[str, str]:
    """(name, base URL) of the company whose schema the connection is on; the product's name and
    the root domain's address on the public schema."""
    schema = connection.schema_name
    tenant = getattr(connection, "tenant", None)
    if not schema or schema == "public":
        return PRODUCT_NAME, root_base_url()
    if not isinstance(tenant, Client):  # schema_context (tasks, commands) sets a stand-in
        tenant = Client.objects.get(schema_name=schema)
    return tenant.name, tenant_base_url(tenant.subdomain)


def email_problems(*, schema_name: str, limit: int = 20) -> list[OutgoingEmail]:
    """The company's messages not sent: given up after their tries (`failed_at`), or still unsent
    OUTBOX_STUCK_SECONDS after they were queued; newest first."""
    from datetime import timedelta

    from django.db.models import Q

    stuck_before = timezone.now() - timedelta(seconds=settings.OUTBOX_STUCK_SECONDS)
    return list(OutgoingEmail.objects.filter(schema_name=schema_name, sent_at__isnull=True)
                .filter(Q(failed_at__isnull=False) | Q(created_at__lt=stuck_before))
                .defer("text", "html").order_by("-created_at")[:limit])


EMAIL_NOT_FOUND = "Email not found"


def email_unsent_get(*, schema_name: str, email_id: str) -> OutgoingEmail:
    """One of the company's messages not sent yet (404 for another company's, or a sent one)."""
    return get_or_404(OutgoingEmail.objects.filter(schema_name=schema_name, sent_at__isnull=True), email_id,
                      EMAIL_NOT_FOUND)
