"""The email provider's events (docs/newsletters.md#deliverability): anymail's tracking webhook
views (`/webhooks/email/<provider>/tracking/` on the root domain; signed as each provider signs,
plus ANYMAIL's WEBHOOK_SECRET) send the `tracking` signal, handled here:

- bounced, rejected (the provider refuses the address: its suppression list), complained: the
  member's email is disabled with the reason (no newsletter is sent to it until staff enable it
  again), and the send's delivery row says what happened;
- unsubscribed (the provider's own unsubscribe): the member leaves every newsletter.

The company is the `company` of the email's metadata (sent with every newsletter email:
apps.newsletters.sending), or the host of its Message-ID; an event naming no company of ours is
ignored.
"""
from __future__ import annotations

import logging
import re

from django.db import connection, transaction
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.core import events
from apps.core.selectors import as_uuid
from apps.members.events import MemberChanged
from apps.members.models import Member
from apps.newsletters.models import Delivery
from tenants.models import Client, Domain

logger = logging.getLogger(__name__)

DISABLING = {"bounced": Delivery.Status.BOUNCED, "rejected": Delivery.Status.BOUNCED,
             "complained": Delivery.Status.COMPLAINED}
_OUR_MESSAGE_ID = re.compile(r"<?([0-9a-f]{32})\.([0-9a-f]{32})@([^>\s]+)>?$")


def _company_of(event) -> tuple[str | None, str | None, str | None]:
    """(schema, send id, member id) the event is about, from its metadata or our Message-ID."""
    metadata = event.metadata or {}
    schema, send_id, member_id = metadata.get("company"), metadata.get("send"), metadata.get("member")
    found = _OUR_MESSAGE_ID.match((event.message_id or "").strip())
    if found and not schema:
        send_id, member_id, host = found.groups()
        domain = Domain.objects.filter(domain=host.lower()).select_related("tenant").first()
        schema = domain.tenant.schema_name if domain else None
    if not isinstance(schema, str) or not Client.objects.filter(schema_name=schema).exists():
        return None, None, None
    return schema, send_id, member_id


def _reason(event, esp_name: str) -> str:
    said = event.description or event.mta_response or event.reject_reason or ""
    return f"{event.event_type} ({esp_name}){': ' + said if said else ''}"[:500]


def on_tracking(sender, event, esp_name, **kwargs) -> None:
    kind = event.event_type
    if kind not in DISABLING and kind != "unsubscribed":
        return
    schema, send_id, member_id = _company_of(event)
    if schema is None:
        logger.info("email event %s from %s names no company: ignored", kind, esp_name)
        return
    recipient = (event.recipient or "").strip().lower()
    with schema_context(schema), transaction.atomic():
        member = Member.objects.select_for_update().filter(email=recipient).first() if recipient else None
        if member is None and as_uuid(member_id):
            member = Member.objects.select_for_update().filter(pk=member_id).first()
        if member is None:
            return
        if kind == "unsubscribed":
            member.newsletters.clear()
            events.publish(MemberChanged(member_id=member.pk, email=member.email, change="unsubscribed",
                                         summary=f"unsubscribed at {esp_name}"))
            return
        reason = _reason(event, esp_name)
        member.email_disabled, member.email_disabled_reason = True, reason
        member.save(update_fields=["email_disabled", "email_disabled_reason", "updated_at"])
        if as_uuid(send_id):
            Delivery.objects.filter(send_id=send_id, member=member).update(
                status=DISABLING[kind], error=reason, claimed_by="")
        events.publish(MemberChanged(member_id=member.pk, email=member.email, change="email_disabled",
                                     summary=reason))
    logger.info("member email disabled in %s: %s (%s)", schema, kind, timezone.now().isoformat())
    connection.set_schema_to_public()
