"""Reads of a company's newsletters."""
from __future__ import annotations

from django.db.models import QuerySet

from apps.core.errors import ValidationFailed
from apps.core.selectors import as_uuid, get_or_404
from apps.newsletters.models import Newsletter

NEWSLETTER_NOT_FOUND = "Newsletter not found"


def newsletter_list(*, include_archived: bool = True) -> QuerySet[Newsletter]:
    newsletters = Newsletter.objects.all()
    return newsletters if include_archived else newsletters.filter(status=Newsletter.Status.ACTIVE)


def newsletter_get(newsletter_id) -> Newsletter:
    return get_or_404(Newsletter.objects.all(), newsletter_id, NEWSLETTER_NOT_FOUND)


def newsletters_active(ids, *, field: str = "newsletters") -> list[Newsletter]:
    """The active newsletters of these ids, in the company's order; 400 naming `field` for an id
    that is not one of them (another company's, archived, not an id)."""
    wanted = [as_uuid(value) for value in ids or []]
    if None in wanted:
        raise ValidationFailed(NEWSLETTER_NOT_FOUND, field=field)
    found = list(Newsletter.objects.filter(pk__in=wanted, status=Newsletter.Status.ACTIVE))
    if len(found) != len(set(wanted)):
        raise ValidationFailed(NEWSLETTER_NOT_FOUND, field=field)
    return found
