"""Reads every app does the same way: one object by id (404 otherwise) and one page of a list."""
from __future__ import annotations

import uuid

from django.db.models import Model, QuerySet

from apps.core.errors import NotFound
from apps.core.pagination import Page


def as_uuid(value) -> uuid.UUID | None:
    """`value` as a UUID, or None when it is not one (ids in paths are text)."""
    try:
        return uuid.UUID(str(value))
    except (TypeError, ValueError, AttributeError):
        return None


def get_or_404(queryset: QuerySet, object_id, message: str) -> Model:
    """The row of `queryset` whose primary key is `object_id`; NotFound(message) when there is
    none, or when `object_id` is not a UUID (so a malformed id is a 404, never a 500)."""
    pk = as_uuid(object_id)
    found = queryset.filter(pk=pk).first() if pk is not None else None
    if found is None:
        raise NotFound(message)
    return found


def paginate(queryset: QuerySet, page: Page) -> tuple[list, int]:
    """The rows of one page and the total; a page past the end reads no rows."""
    total = queryset.count()
    rows = list(queryset[page.offset: page.offset + page.limit]) if total > page.offset else []
    return rows, total
