from __future__ import annotations

from datetime import datetime

from apps.audit.models import ACTIONS
from apps.core.schemas import OutSchema, PaginationOut, SuccessOut


class AuditEntryOut(OutSchema):
    id: str
    createdAt: datetime
    action: str
    actionLabel: str
    userId: str | None
    username: str  # kept after the user is deleted; empty for a failed sign-in or the scheduler
    objectType: str
    objectId: str
    summary: str
    clientHash: str  # the day's keyed hash of the client address (same address, same day: same hash)

    @staticmethod
    def of(entry) -> "AuditEntryOut":
        return AuditEntryOut(
            id=str(entry.id), createdAt=entry.created_at, action=entry.action,
            actionLabel=ACTIONS.get(entry.action, entry.action),
            userId=str(entry.actor_id) if entry.actor_id else None, username=entry.actor_name,
            objectType=entry.object_type, objectId=entry.object_id, summary=entry.summary,
            clientHash=entry.client_hash,
        )


class AuditActionOut(OutSchema):
    value: str
    label: str


class AuditListOut(SuccessOut):
    entries: list[AuditEntryOut]
    actions: list[AuditActionOut]  # every action the filter takes, with its label
    pagination: PaginationOut
