"""Writes of newsletters (docs/newsletters.md)."""
from __future__ import annotations

from django.db import IntegrityError, transaction

from apps.newsletters.models import Newsletter

FIRST_NAME = "Newsletter"


def newsletter_first_ensure() -> None:
    """A company has one newsletter from the moment one is needed (its readers join it by default):
    made when the company has none at all. (Not a row of the provisioning template: every company's
    newsletter has its own id.)"""
    if Newsletter.objects.exists():
        return
    try:
        with transaction.atomic():
            Newsletter.objects.create(name=FIRST_NAME, slug="newsletter")
    except IntegrityError:  # made at this very moment by another request
        pass


def newsletters_default() -> list[Newsletter]:
    """The active newsletters a new reader joins when they name none."""
    newsletter_first_ensure()
    return list(Newsletter.objects.filter(status=Newsletter.Status.ACTIVE, default_on_signup=True))
