"""Reads of a company's integrations (the current schema's)."""
from __future__ import annotations

from django.db.models import QuerySet

from apps.core.errors import NotFound
from apps.core.selectors import as_uuid
from apps.integrations import secrets
from apps.integrations.models import Integration

INTEGRATION_NOT_FOUND = "Integration not found"


def integration_list() -> QuerySet[Integration]:
    return Integration.objects.order_by("-company_key", "created_at", "id")


def integration_get(integration_id: str, *, for_update: bool = False) -> Integration:
    pk = as_uuid(integration_id)
    found = None
    if pk is not None:
        queryset = Integration.objects.select_for_update() if for_update else Integration.objects
        found = queryset.filter(pk=pk).first()
    if found is None:
        raise NotFound(INTEGRATION_NOT_FOUND)
    return found


def integration_by_admin_key_id(key_id: str) -> Integration | None:
    """The integration whose Admin API key has this id (a token's `kid`), or None."""
    if not key_id or len(key_id) != 24:
        return None
    return Integration.objects.filter(admin_key_id=key_id.lower()).first()


def admin_secret_of(integration: Integration) -> bytes | None:
    """The Admin API key's secret as the bytes tokens are signed with (Ghost: the hex secret
    decoded), or None when it cannot be read."""
    secret = secrets.decrypt(integration.admin_secret)
    if secret is None:
        return None
    try:
        return bytes.fromhex(secret)
    except ValueError:
        return None


def content_key_integration(key: str) -> Integration | None:
    """The integration (other than the company's own key's) whose Content API key this is, or None."""
    if not key or len(key) != secrets.CONTENT_KEY_BYTES * 2:
        return None
    return Integration.objects.filter(content_key_hash=secrets.content_key_hash(key)).first()
