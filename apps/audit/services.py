"""Writes of the audit log. `audit_record` is the one way an entry is written: the services call
it inside their own transaction, so an entry exists exactly when the change it names committed
(a failed sign-in, which changes nothing, is recorded on its own)."""
from __future__ import annotations

from datetime import timedelta

from django.db import connection
from django.utils import timezone

from apps.analytics.privacy import clean_ip, visitor_hash
from apps.audit.models import ACTIONS, AuditEntry
from apps.core.logging import client_address_var, support_operator_var

SUMMARY_MAX = 500


def _client_hash() -> str:
    """The day's keyed hash of the request's client address (the analytics visitor hash with no
    user agent): entries of one address on one day match, the address itself is never kept."""
    ip = clean_ip(client_address_var.get())
    if not ip:
        return ""
    return visitor_hash(schema=connection.schema_name, ip=ip, user_agent="", day=timezone.now().date())


def support_actor_name(operator: str, username: str) -> str:
    """How the audit log names what an operator did in a support session."""
    return f"support ({operator}) as {username}"


def audit_record(*, action: str, actor=None, object_type: str = "", object_id=None, summary: str = "",
                 actor_name: str | None = None) -> AuditEntry:
    if action not in ACTIONS:
        raise ValueError(action)
    if actor_name is None and getattr(actor, "audit_name", None):  # not a person: an integration
        actor_name = actor.audit_name  # (apps.integrations.actor)
    actor = actor if getattr(actor, "pk", None) else None
    if actor_name is None:
        actor_name = actor.username if actor is not None else ""
        operator = support_operator_var.get()
        if operator and actor is not None:  # a support session (apps.accounts.support)
            actor_name = support_actor_name(operator, actor.username)
    return AuditEntry.objects.create(
        action=action, actor=actor, actor_name=actor_name[:254], object_type=object_type,
        object_id=str(object_id) if object_id is not None else "", summary=(summary or "")[:SUMMARY_MAX],
        client_hash=_client_hash(),
    )


def audit_prune(*, days: int) -> int:
    """Drop entries older than `days`; returns how many went."""
    deleted, _ = AuditEntry.objects.filter(created_at__lt=timezone.now() - timedelta(days=days)).delete()
    return deleted
