"""Sign-in on the root domain by email: the public directory of accounts and "find my companies".

`AccountDirectory` (public schema) has one row per user of every company: its email, whether the user
is active, and the company. apps.accounts.services.user_directory_sync writes it with every create,
change and delete of a user; `directory_rebuild` fills it for companies that existed before (the
migration tenants 0010 and `manage.py account_directory_rebuild`). With 10,000 companies, finding
an address's companies is one indexed read here instead of a query in every schema.

POST /api/auth/find-companies on the root domain answers the same 200 whatever the address, after
the same work (the throttle and queueing a task); the task emails the list of sign-in links of the
serving companies where the address has an active account, and sends nothing when there is none
(the product does not email strangers who typed an address that is not theirs).
"""
from __future__ import annotations

import logging
import uuid
from urllib.parse import urlencode

from django.conf import settings
from django.db import connection, transaction
from django_tenants.utils import get_public_schema_name

from apps.core import ratelimit
from apps.core.email import email_queue
from apps.core.outbox import outbox_add
from tenants.addresses import root_base_url, tenant_base_url
from tenants.models import AccountDirectory, Client

logger = logging.getLogger(__name__)

FIND_TASK = "tenants.find_companies_email"
FIND_REQUESTED = ("If this email has an account, we have sent it a list of your companies' sign-in pages. "
                  "Check your inbox (and spam folder).")


def _client_id(schema_name: str) -> int | None:
    tenant = getattr(connection, "tenant", None)
    if isinstance(tenant, Client) and tenant.schema_name == schema_name and tenant.pk:
        return tenant.pk
    return Client.objects.filter(schema_name=schema_name).values_list("pk", flat=True).first()


def directory_put(*, schema_name: str, user_id, email: str, active: bool) -> None:
    """Insert or update the row of one user (one statement on the public table)."""
    client_id = _client_id(schema_name)
    if client_id is None:  # the provisioning template: no company
        return
    AccountDirectory.objects.update_or_create(client_id=client_id, user_id=user_id,
                                              defaults={"email": email.strip().lower(), "active": active})


def directory_remove(*, schema_name: str, user_id) -> None:
    client_id = _client_id(schema_name)
    if client_id is not None:
        AccountDirectory.objects.filter(client_id=client_id, user_id=user_id).delete()


def directory_rebuild(*, client_model=Client, directory_model=AccountDirectory, subdomains=None) -> int:
    """Write the directory rows of every company from its users: one read of one company's schema, then
    one write of the public table, per company. Returns the rows written. (The migration passes its
    historical models.)"""
    quote = connection.ops.quote_name
    public = get_public_schema_name()
    AccountDirectory = directory_model  # noqa: N806
    written = 0
    clients = client_model.objects.exclude(schema_name=public).order_by("pk")
    if subdomains is not None:
        clients = clients.filter(subdomain__in=list(subdomains))
    for client in clients:
        with connection.cursor() as cursor:
            cursor.execute("SELECT to_regclass(%s)", [f"{quote(client.schema_name)}.accounts_user"])
            if cursor.fetchone()[0] is None:
                continue
            cursor.execute(f"SELECT id, email, status FROM {quote(client.schema_name)}.accounts_user")
            users = cursor.fetchall()
        with transaction.atomic():
            AccountDirectory.objects.filter(client_id=client.pk).delete()
            AccountDirectory.objects.bulk_create([
                AccountDirectory(client_id=client.pk, user_id=user_id, email=email.lower(), active=status == "active")
                for user_id, email, status in users])
        written += len(users)
    return written


def companies_for_email(email: str) -> list[Client]:
    """The serving companies (not suspended, not being deleted) where `email` has an active account."""
    client_ids = AccountDirectory.objects.filter(email=email.strip().lower(), active=True).values_list(
        "client_id", flat=True)
    return list(Client.objects.serving().filter(pk__in=list(client_ids)).order_by("name"))


def find_companies_request(*, email: str, ip: str) -> None:
    """The root domain's "find my companies": throttled per client address and per email (429), then the
    lookup and the email are left to a task, so the reply and its time are the same for every address."""
    email = email.strip().lower()
    ratelimit.spend([
        (ratelimit.parse_rate(settings.FIND_COMPANIES_RATE_PER_IP), ("find-companies-ip", ip)),
        (ratelimit.parse_rate(settings.FIND_COMPANIES_RATE_PER_EMAIL), ("find-companies-email", email)),
    ], "Too many requests. Please try again in {wait}.")
    request_id = uuid.uuid4().hex
    # Through the outbox: a broker down now delays the email, it neither loses it nor fails the request.
    outbox_add(task=FIND_TASK, args=[email, request_id], key=f"find-companies:{request_id}",
               schema_name=get_public_schema_name())


def find_companies_email(*, email: str, request_id: str | None = None) -> int:
    """The task's body: email the sign-in links of the address's companies (none: no email). Returns
    how many companies were listed. One request queues one email, however often its task runs."""
    connection.set_schema_to_public()
    companies = companies_for_email(email)
    if not companies:
        logger.info("find-companies: no active account for the address; nothing sent")
        return 0
    links = [{"name": client.name, "host": f"{client.subdomain}.{settings.ROOT_DOMAIN}",
              "url": f"{tenant_base_url(client.subdomain)}/login?{urlencode({'email': email})}"}
             for client in companies]
    with transaction.atomic():
        email_queue(kind="find_companies", to=email, base_url=root_base_url(),
                    key=f"find-companies:{request_id}" if request_id else None,
                    context={"email": email, "companies": links})
    return len(links)
