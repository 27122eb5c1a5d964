"""What happens to members, told once by apps.members.services to the subscribers of
apps.core.events (a subscriber ignores the kinds it has no use for)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from apps.core.events import Event


@dataclass(frozen=True, kw_only=True)
class MemberChanged(Event):
    """A member was created, updated, deleted, subscribed or unsubscribed, or their email was
    disabled (`change`: created, updated, deleted, subscribed, unsubscribed, email_disabled)."""

    member_id: Any
    email: str
    change: str
    actor: Any = None
    summary: str = ""
