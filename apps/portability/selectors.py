"""Reads of imports, exports and the redirect map."""
from __future__ import annotations

from django.db.models import QuerySet

from apps.content.models import public_q
from apps.portability.models import ImportJob, Redirect


def import_list() -> QuerySet[ImportJob]:
    return ImportJob.objects.order_by("-created_at", "-id")


def redirects() -> QuerySet:
    """(old address, slug, kind) of every published post's (or page's) old addresses, by address."""
    return Redirect.objects.filter(public_q("post__")).order_by("old_path").values_list(
        "old_path", "post__slug", "post__kind")
