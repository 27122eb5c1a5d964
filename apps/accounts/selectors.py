from __future__ import annotations

import uuid

from django.db.models import QuerySet

from apps.accounts.models import User
from apps.core.errors import NotFound

USER_NOT_FOUND = "User not found"


def user_list() -> QuerySet[User]:
    return User.objects.all().order_by("created_at")


def user_get(user_id: str | uuid.UUID) -> User:
    try:
        return User.objects.get(pk=uuid.UUID(str(user_id)))
    except (ValueError, User.DoesNotExist) as exc:
        raise NotFound(USER_NOT_FOUND) from exc


def user_get_by_email(email: str) -> User | None:
    return User.objects.filter(email=email.strip().lower()).first()


def user_count() -> int:
    return User.objects.count()
