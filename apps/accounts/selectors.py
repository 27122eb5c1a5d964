from __future__ import annotations

import uuid

from django.db.models import QuerySet

from apps.accounts.models import Invitation, User
from apps.core.selectors import get_or_404

USER_NOT_FOUND = "User not found"


def user_list() -> QuerySet[User]:
    return User.objects.all().order_by("created_at")


def user_get(user_id: str | uuid.UUID) -> User:
    return get_or_404(User.objects.all(), user_id, USER_NOT_FOUND)


def user_get_by_email(email: str) -> User | None:
    return User.objects.filter(email=email.strip().lower()).first()


def user_count() -> int:
    return User.objects.count()


def invitation_pending_list() -> QuerySet:
    """Open invitations (not accepted, not revoked), newest first; expired ones are listed too
    (marked by their date) so an admin can resend them."""
    return Invitation.objects.filter(accepted_at__isnull=True, revoked_at__isnull=True).select_related(
        "invited_by").order_by("-created_at")
