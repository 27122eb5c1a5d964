"""Email verification at sign-up.

Sign-up stays instant: the company and its admin exist at once and the admin signs in. An email
with a link goes to the admin's address; until it is opened the company's public content API
answers 403 (`email_unverified`) and the dashboard shows a banner with "Resend". Companies still
unverified after UNVERIFIED_COMPANY_DAYS are deleted by a beat task.

The link's token is signed (django.core.signing, salted) and carries the company, the address and
the time the email was sent: it expires after EMAIL_VERIFICATION_MAX_AGE seconds, it is bound to the
address, a resend makes older links stop working, and once the company is verified a link does
nothing more."""
from __future__ import annotations

import logging
from datetime import timedelta
from urllib.parse import urlencode

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.utils import timezone
from django_tenants.utils import get_public_schema_name, schema_context

from apps.core import ratelimit
from apps.core.email import email_queue
from apps.core.errors import ErrorCode, ValidationFailed
from lifecycle.deletion import client_deletion_start
from tenants.addresses import tenant_base_url
from tenants.models import Client

logger = logging.getLogger(__name__)

SALT = "cms.tenants.verify-email"
LINK_INVALID = "This verification link is invalid or has expired. Sign in and use \"Resend\" to get a new one."
VERIFIED = "Your email address is verified. Your company's content API is now open."
ALREADY_VERIFIED = "Your email address was already verified."


def _token(client: Client) -> str:
    sent = int(client.verification_sent_at.timestamp() * 1_000_000)
    return signing.dumps({"c": str(client.uuid), "e": client.verification_email, "s": sent}, salt=SALT)


def verification_send(*, client: Client, email: str | None = None) -> None:
    """(Re)send the verification email (to `email`, else the address of the last one); links sent
    before stop working. Call inside a transaction: the email leaves after commit."""
    with schema_context(get_public_schema_name()):
        client = Client.objects.select_for_update().get(pk=client.pk)
        client.verification_email = (email or client.verification_email).strip().lower()
        client.verification_sent_at = timezone.now()
        client.save(update_fields=["verification_email", "verification_sent_at"])
        verification_email_queue(client=client)


def verification_email_queue(*, client: Client) -> None:
    """Queue the email of the link for the address and time the company row records. A sign-up
    writes both in the company's INSERT and calls this alone: it neither locks nor updates the
    shared companies table (on Citus a reference table, whose UPDATEs wait on every sign-up in
    progress)."""
    base_url = tenant_base_url(client.subdomain)
    url = f"{base_url}/verify-email?{urlencode({'token': _token(client)})}"
    days = max(1, round(settings.EMAIL_VERIFICATION_MAX_AGE / 86400))
    with schema_context(get_public_schema_name()):
        email_queue(kind="verify_email", to=client.verification_email, company_name=client.name, base_url=base_url,
                    context={"url": url, "valid_for": f"{days} day{'s' if days != 1 else ''}",
                             "delete_after": settings.UNVERIFIED_COMPANY_DAYS})


def verification_resend(*, client: Client, ip: str) -> None:
    """The dashboard's "Resend" (throttled per company: VERIFICATION_RESEND_RATE)."""
    ratelimit.spend([(ratelimit.parse_rate(settings.VERIFICATION_RESEND_RATE), ("verify-resend", client.schema_name))],
                    "An email was sent a moment ago. Please try again in {wait}.")
    if client.email_verified:
        return
    with transaction.atomic():
        verification_send(client=client)


@transaction.atomic
def verification_confirm(*, client: Client, token: str) -> str:
    """Open the link on the company's host: the company is verified (its public API opens). Another
    company's link, an altered, expired or superseded one: 400 `link_invalid`."""
    try:
        data = signing.loads(token, salt=SALT, max_age=settings.EMAIL_VERIFICATION_MAX_AGE)
    except signing.BadSignature as exc:  # SignatureExpired is one
        raise ValidationFailed(LINK_INVALID, field="token", detail=ErrorCode.LINK_INVALID) from exc
    with schema_context(get_public_schema_name()):
        locked = Client.objects.select_for_update().get(pk=client.pk)
        if not isinstance(data, dict) or data.get("c") != str(locked.uuid):
            raise ValidationFailed(LINK_INVALID, field="token", detail=ErrorCode.LINK_INVALID)
        if locked.email_verified:
            return ALREADY_VERIFIED
        sent = locked.verification_sent_at
        current = sent is not None and data.get("s") == int(sent.timestamp() * 1_000_000)
        if data.get("e") != locked.verification_email or not current:
            raise ValidationFailed(LINK_INVALID, field="token", detail=ErrorCode.LINK_INVALID)
        locked.email_verified_at = timezone.now()
        locked.save(update_fields=["email_verified_at"])  # the public API's host map opens on commit
    return VERIFIED


def unverified_delete_due() -> int:
    """Beat: companies still unverified UNVERIFIED_COMPANY_DAYS after sign-up are deleted (their
    deletion is queued, as an admin's would be)."""
    cutoff = timezone.now() - timedelta(days=settings.UNVERIFIED_COMPANY_DAYS)
    due = list(Client.objects.filter(email_verified_at__isnull=True, created_at__lt=cutoff)
               .exclude(status=Client.Status.DELETING).exclude(schema_name=get_public_schema_name())
               .values_list("pk", flat=True))
    for pk in due:
        with transaction.atomic():
            client = Client.objects.select_for_update().filter(pk=pk, email_verified_at__isnull=True).exclude(
                status=Client.Status.DELETING).first()
            if client is not None:
                client_deletion_start(client=client)
                logger.info("company %s unverified for %s days: deletion queued", client.subdomain,
                            settings.UNVERIFIED_COMPANY_DAYS)
    return len(due)
