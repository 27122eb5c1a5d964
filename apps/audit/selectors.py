"""Reads of the audit log: the filtered list of the Activity screen, newest first."""
from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone as dt_timezone

from django.db.models import QuerySet

from apps.audit.models import ACTIONS, OBJECT_TYPES, AuditEntry
from apps.core.errors import ValidationFailed
from apps.core.selectors import as_uuid

ACTION_INVALID = "Action must be one of " + ", ".join(ACTIONS)
OBJECT_TYPE_INVALID = "Object type must be one of " + ", ".join(OBJECT_TYPES)
USER_INVALID = "User must be a user id"
DATE_INVALID = "Dates must be written YYYY-MM-DD or as an ISO 8601 time"
RANGE_INVALID = "The start of the range must not be after its end"


def _moment(value: str, field: str, *, end: bool) -> datetime:
    """A day (the whole day: `to` includes it) or an ISO 8601 time; naive times are UTC."""
    text = value.strip()
    try:
        if len(text) == 10:
            day = date.fromisoformat(text)
            start = datetime.combine(day, time.min, tzinfo=dt_timezone.utc)
            return start + timedelta(days=1) if end else start
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as exc:
        raise ValidationFailed(DATE_INVALID, field=field) from exc
    return moment if moment.tzinfo else moment.replace(tzinfo=dt_timezone.utc)


def audit_list(*, user: str | None = None, action: str | None = None, object_type: str | None = None,
               object_id: str | None = None, date_from: str | None = None,
               date_to: str | None = None) -> QuerySet[AuditEntry]:
    queryset = AuditEntry.objects.all()
    if user and user.strip():
        pk = as_uuid(user.strip())
        if pk is None:
            raise ValidationFailed(USER_INVALID, field="user")
        queryset = queryset.filter(actor_id=pk)
    if action and action.strip():
        if action.strip() not in ACTIONS:
            raise ValidationFailed(ACTION_INVALID, field="action")
        queryset = queryset.filter(action=action.strip())
    if object_type and object_type.strip():
        if object_type.strip() not in OBJECT_TYPES:
            raise ValidationFailed(OBJECT_TYPE_INVALID, field="objectType")
        queryset = queryset.filter(object_type=object_type.strip())
    if object_id and object_id.strip():
        queryset = queryset.filter(object_id=object_id.strip()[:64])
    start = _moment(date_from, "from", end=False) if date_from and date_from.strip() else None
    end = _moment(date_to, "to", end=True) if date_to and date_to.strip() else None
    if start and end and start >= end:
        raise ValidationFailed(RANGE_INVALID, field="from")
    if start:
        queryset = queryset.filter(created_at__gte=start)
    if end:
        queryset = queryset.filter(created_at__lt=end)
    return queryset.order_by("-created_at", "-id")
