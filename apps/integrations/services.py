"""Writes of a company's integrations (docs/publishing-from-tools.md). Each write publishes what it
did (apps.core.events.IntegrationChanged): the audit log records it, and a Content API key that
stops working purges the company's cached public replies.

- The company's first integration stands for its own Ghost content key (Client.ghost_content_key,
  made at sign-up): it is made when the company's integrations are first listed
  (`integration_company_key_ensure`), without an Admin API key (one is made when it is rotated),
  and it cannot be deleted (its content key is the company's: rotate it instead).
- A key is shown in full once, in the reply of the write that made it (`Issued`); afterwards only
  its hint (its last four digits) and, for an Admin API key, its id.
- Rotation makes new keys and the old ones stop working when the write commits (a token signed
  with the old secret, or naming the old id, is refused at once).
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction

from apps.core import events
from apps.core.errors import Conflict
from apps.integrations import secrets
from apps.integrations.models import Integration
from apps.integrations.selectors import integration_get
from tenants.models import Client, new_ghost_content_key

COMPANY_KEY_NAME = "Website"
COMPANY_KEY_KEPT = ("This integration holds the company's Ghost content key, which its website may use. "
                    "Rotate its keys instead.")
CONTENT, ADMIN = "content", "admin"
KEYS = (CONTENT, ADMIN)


@dataclass(frozen=True)
class Issued:
    """An integration and the keys a write made (None: not made by this write), shown this once."""

    integration: Integration
    content_key: str | None = None
    admin_key: str | None = None  # "<id>:<secret>"


def _set_admin_key(integration: Integration) -> str:
    key_id, secret = secrets.new_admin_key()
    integration.admin_key_id = key_id
    integration.admin_secret = secrets.encrypt(secret)
    integration.admin_secret_hint = secrets.hint(secret)
    return f"{key_id}:{secret}"


def _set_content_key(integration: Integration) -> str:
    key = secrets.new_content_key()
    integration.content_key_hash = secrets.content_key_hash(key)
    integration.content_key_hint = secrets.hint(key)
    return key


def integration_company_key_ensure(*, client) -> None:
    """The integration of the company's own Ghost content key, made when missing (a concurrent
    request that made it first wins; nothing is published: nothing changed for anyone)."""
    if Integration.objects.filter(company_key=True).exists():
        return
    try:
        with transaction.atomic():
            Integration.objects.create(name=COMPANY_KEY_NAME, company_key=True)
    except IntegrityError:
        pass


@transaction.atomic
def integration_create(*, client, name: str, actor=None) -> Issued:
    """A new integration with both its keys (`name`: checked by the input schema)."""
    integration = Integration(name=name.strip(), created_by=actor if getattr(actor, "pk", None) else None)
    content_key = _set_content_key(integration)
    admin_key = _set_admin_key(integration)
    integration.save(force_insert=True)
    events.publish(events.IntegrationChanged(client=client, integration_id=integration.pk, name=integration.name,
                                             change="created", actor=actor))
    return Issued(integration, content_key=content_key, admin_key=admin_key)


@transaction.atomic
def integration_rotate(*, client, integration: Integration, keys=KEYS, actor=None) -> Issued:
    """New keys (`keys`: "content", "admin" or both); the old ones stop working when this commits.
    The company's integration's Content API key is the company's Ghost content key: it is rotated
    there (the public API's host map follows the company's row)."""
    integration = integration_get(str(integration.pk), for_update=True)
    content_key = admin_key = None
    if CONTENT in keys:
        if integration.company_key:
            locked = Client.objects.select_for_update().get(pk=client.pk)
            locked.ghost_content_key = content_key = new_ghost_content_key()
            locked.save(update_fields=["ghost_content_key"])
            client.ghost_content_key = content_key
        else:
            content_key = _set_content_key(integration)
    if ADMIN in keys:
        admin_key = _set_admin_key(integration)
    integration.save()
    rotated = " and ".join(label for key, label in ((CONTENT, "Content API key"), (ADMIN, "Admin API key"))
                           if key in keys)
    events.publish(events.IntegrationChanged(client=client, integration_id=integration.pk, name=integration.name,
                                             change="rotated", actor=actor, summary=rotated,
                                             content_key_changed=content_key is not None))
    return Issued(integration, content_key=content_key, admin_key=admin_key)


@transaction.atomic
def integration_delete(*, client, integration: Integration, actor=None) -> None:
    """The integration and its keys are gone when this commits (409 for the company's own key's)."""
    integration = integration_get(str(integration.pk), for_update=True)
    if integration.company_key:
        raise Conflict(COMPANY_KEY_KEPT)
    Integration.objects.filter(pk=integration.pk).delete()
    events.publish(events.IntegrationChanged(client=client, integration_id=integration.pk, name=integration.name,
                                             change="deleted", actor=actor, content_key_changed=True))
