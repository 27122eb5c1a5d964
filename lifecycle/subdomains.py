"""A new company's subdomain (free, not reserved) and the schema named after it: checked by sign-up
(lifecycle.services) and by a restore into a new company (lifecycle.backup)."""
from __future__ import annotations

from django.conf import settings

from apps.core.errors import Conflict, ErrorCode
from tenants.models import Client

SUBDOMAIN_TAKEN = "This subdomain is already taken. Please choose another one."
SUBDOMAIN_RESERVED = "This subdomain is reserved. Please choose another one."


def schema_name_for(subdomain: str) -> str:
    return "t_" + subdomain.replace("-", "_")


def subdomain_check_available(subdomain: str) -> None:
    if subdomain in settings.RESERVED_SUBDOMAINS or subdomain.startswith("pg"):
        raise Conflict(SUBDOMAIN_RESERVED, errors=[{"field": "subdomain", "message": SUBDOMAIN_RESERVED}],
                       detail=ErrorCode.SUBDOMAIN_RESERVED)
    if Client.objects.filter(subdomain=subdomain).exists():
        raise Conflict(SUBDOMAIN_TAKEN, errors=[{"field": "subdomain", "message": SUBDOMAIN_TAKEN}],
                       detail=ErrorCode.SUBDOMAIN_TAKEN)
