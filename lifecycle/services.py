from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, ProgrammingError, connection, transaction
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.accounts.services import user_create
from apps.core import events, ratelimit
from apps.core.errors import Conflict, ErrorCode, NotFound
from apps.core.permissions import Role
from lifecycle.provisioning import schema_create_from_template, template_current
from lifecycle.subdomains import SUBDOMAIN_TAKEN, schema_name_for, subdomain_check_available
from lifecycle.verification import verification_email_queue
from tenants.addresses import tenant_host
from tenants.models import Client, Domain, new_content_key, new_ghost_content_key, new_preview_key


def signup_throttle(*, ip: str, contact_email: str) -> None:
    """Sign-ups are limited per client address, per contact email and in all (SIGNUP_RATE_*
    settings): each one creates a schema, so an unlimited stream of them is a cheap attack.
    Every attempt that reaches this point counts, accepted or not."""
    checks = [
        (ratelimit.parse_rate(settings.SIGNUP_RATE_PER_IP), ("signup-ip", ip)),
        (ratelimit.parse_rate(settings.SIGNUP_RATE_PER_EMAIL), ("signup-email", contact_email.strip().lower())),
        (ratelimit.parse_rate(settings.SIGNUP_RATE_GLOBAL), ("signup-all",)),
    ]
    ratelimit.spend(checks, "Too many sign-ups. Please try again in {wait}.")


def client_register(
    *,
    company_name: str,
    contact_name: str,
    contact_email: str,
    subdomain: str,
    admin_username: str,
    admin_email: str,
    admin_password: str,
    plan: str | None = None,
    verified: bool = False,
) -> Client:
    """Create the company, its schema (from the template), its domain and its first admin in
    one transaction: a failure at any step leaves nothing behind. A sign-up (`verified` False)
    emails the admin a verification link (lifecycle.verification); an operator's company or the
    demo is verified at once.

    Sign-ups run side by side (docs/scaling.md#sign-ups-at-the-same-moment): the schema comes first
    (a spare renamed, taken with SKIP LOCKED, or the template's DDL: the long part, which touches
    no shared row); then the shared tables get INSERTs only, in one order (the company with every
    value it starts with, its domain, its account in the directory, its email), never an UPDATE or
    a row lock of another company's rows. On Citus the companies and domains tables are reference
    tables, where an UPDATE or a SELECT FOR UPDATE holds the whole table until commit and two
    sign-ups doing so deadlocked; INSERTs there run side by side."""
    connection.set_schema_to_public()
    subdomain_check_available(subdomain)
    template = template_current()
    plan = plan or settings.DEFAULT_SUBSCRIPTION_PLAN
    now = timezone.now()
    schema_name = schema_name_for(subdomain)
    try:
        with transaction.atomic():
            # Another sign-up of the same subdomain waits here on the schema's name, then gets 409.
            schema_create_from_template(schema_name, template)
            client = Client(
                schema_name=schema_name,
                subdomain=subdomain,
                name=company_name,
                contact_name=contact_name,
                contact_email=contact_email,
                subscription_plan=plan,
                status=Client.Status.TRIAL if plan == "trial" else Client.Status.ACTIVE,
                trial_ends_at=now + timedelta(days=settings.TRIAL_DAYS) if plan == "trial" else None,
                verification_email=admin_email.strip().lower(),
                verification_sent_at=None if verified else now,
                email_verified_at=now if verified else None,
                migrations_digest=template.migrations_digest,
            )
            client.save()
            Domain(domain=tenant_host(subdomain), tenant=client, is_primary=True).save()
            with schema_context(client.schema_name):
                user_create(username=admin_username, email=admin_email, password=admin_password, role=Role.ADMIN)
            # The admin signs in at once; the public API opens when the emailed link is opened.
            if not verified:
                verification_email_queue(client=client)
    except (IntegrityError, ProgrammingError) as exc:
        # Another sign-up took the subdomain between the check and the insert.
        if Client.objects.filter(subdomain=subdomain).exists() or "already exists" in str(exc):
            raise Conflict(SUBDOMAIN_TAKEN, detail=ErrorCode.SUBDOMAIN_TAKEN) from exc
        raise
    finally:
        connection.set_schema_to_public()
    return client


def client_get(subdomain: str) -> Client:
    client = Client.objects.filter(subdomain=subdomain).first()
    if client is None:
        raise NotFound(f"No company with subdomain {subdomain!r}")
    return client


def client_set_status(*, client: Client, status: str) -> Client:
    client.status = status
    client.save(update_fields=["status"])
    # A suspended company's website gets the app's 403 at once (its cached replies are purged).
    events.publish(events.CompanyChanged(client=client, change="status", summary=status))
    return client


def client_rotate_keys(*, client: Client, content: bool = True, preview: bool = False, actor=None) -> Client:
    """New keys; the old ones stop working (and their copies in the cache tier are dropped) when this
    commits. `content`: the content key and the Ghost content key together (both read published
    content for websites). `actor`: the company's admin who asked (None: an operator's command)."""
    fields = []
    if content:
        client.api_key = new_content_key()
        client.ghost_content_key = new_ghost_content_key()
        fields.extend(["api_key", "ghost_content_key"])
    if preview:
        client.preview_key = new_preview_key()
        fields.append("preview_key")
    if fields:
        client.save(update_fields=fields)
        keys = "Content and preview API keys" if content and preview else (
            "Content API key" if content else "Preview API key")
        events.publish(events.CompanyChanged(client=client, change="keys", actor=actor, summary=keys))
    return client


def client_delete(*, client: Client) -> None:
    connection.set_schema_to_public()
    client.delete(force_drop=True)
