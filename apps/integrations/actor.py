"""An integration as the actor of a write (the Ghost Admin API: apps.ghost_api.admin).

The services ask an actor for its role (apps.core.permissions.can) and name it in the events they
publish; the audit log records it by `audit_name`. It is no member of the staff: it has no `pk`
(no row of accounts.User is ever set from it: a post's author is a member of the staff, a revision
or a media item written by it has no user), no password, no sign-in.

Its role is the editor's: it creates, edits, publishes and deletes posts, pages, tags and media,
as Ghost's Admin API integrations do; it manages neither users nor the company's settings.
"""
from __future__ import annotations

import uuid
from apps.core.permissions import Role


class IntegrationActor:
    """Not a dataclass: the audit log's entries are dataclasses copied with `asdict`, which would
    turn a dataclass actor into a dict."""

    __slots__ = ("integration_id", "name", "role")
    pk = None  # not a user: `getattr(actor, "pk", None)` is None

    def __init__(self, integration_id: uuid.UUID, name: str, role: str = Role.EDITOR) -> None:
        self.integration_id, self.name, self.role = integration_id, name, role

    def __repr__(self) -> str:
        return f"IntegrationActor({self.name!r})"

    @property
    def audit_name(self) -> str:
        return f"{self.name} (integration)"

    @property
    def username(self) -> str:  # where a person's name is shown (a conflict's "changed by ...")
        return self.audit_name


def actor_of(integration) -> IntegrationActor:
    return IntegrationActor(integration_id=integration.pk, name=integration.name)
