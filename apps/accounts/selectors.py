from __future__ import annotations

import uuid

from django.db.models import QuerySet

from apps.accounts.models import User
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
