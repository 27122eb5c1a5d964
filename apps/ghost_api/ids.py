"""Ghost's ids from ours.

Ghost names everything with a 24-hex-digit ObjectId; every row here has a UUID. The Ghost id of a
row is the first 24 hex digits of its UUID (96 of its 122 random bits): stable, the same on
every read, and found again through the primary key's index as the range of UUIDs that start
with it (`id_q`). The full UUID is the post's Ghost `uuid`.
"""
from __future__ import annotations

import re
import uuid

from django.db.models import Q

GHOST_ID = re.compile(r"[0-9a-f]{24}")


def ghost_id(value) -> str:
    return (value.hex if isinstance(value, uuid.UUID) else str(value).replace("-", ""))[:24]


def is_ghost_id(value: str) -> bool:
    return bool(GHOST_ID.fullmatch(value or ""))


def id_q(value: str, field: str = "id") -> Q:
    """The rows whose Ghost id is `value` (none for a value that is no Ghost id)."""
    value = (value or "").lower()
    if not is_ghost_id(value):
        return Q(pk__in=[])
    return Q(**{f"{field}__gte": uuid.UUID(value + "0" * 8), f"{field}__lte": uuid.UUID(value + "f" * 8)})
