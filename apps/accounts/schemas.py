from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BeforeValidator, field_validator

from apps.core.permissions import Role
from apps.core.schemas import InSchema, OutSchema, SuccessOut, omitted, snake_case_fields
from apps.core.validation import (Email, OptionalEmail, OptionalPassword, OptionalUsername, Password, Username,
                                  clean_email)


class LoginIn(InSchema):
    email: str = ""
    password: str = ""

    @field_validator("email", mode="before")
    @classmethod
    def _email(cls, value):
        if not isinstance(value, str) or not value.strip():
            raise ValueError("Email is required")
        return clean_email(value)

    @field_validator("password", mode="before")
    @classmethod
    def _password(cls, value):
        if not isinstance(value, str) or not value:
            raise ValueError("Password is required")
        return value


RoleName = Literal["admin", "editor", "author", "viewer"]
StatusName = Literal["active", "inactive", "suspended"]


class UserOut(OutSchema):
    """The User object of API.md (`id` and `userId` are the same value)."""

    id: str
    userId: str
    username: str
    email: str
    role: RoleName
    status: StatusName
    lastLogin: datetime | None
    createdAt: datetime

    @staticmethod
    def from_user(user) -> "UserOut":
        return UserOut(
            id=str(user.id), userId=str(user.id), username=user.username, email=user.email, role=user.role,
            status=user.status, lastLogin=user.last_login, createdAt=user.created_at,
        )


class SessionUserOut(OutSchema):
    userId: str
    username: str
    role: RoleName


class LoginOut(SuccessOut):
    message: str
    token: str
    expiresIn: int  # seconds
    user: SessionUserOut


class UserReplyOut(SuccessOut):
    """GET auth/me, GET users/{id}"""

    user: UserOut


class MeOut(UserReplyOut):
    """GET auth/me: the user and (+) what their role may do (apps.core.permissions.CAPABILITIES)."""

    capabilities: list[str]


class UserListOut(SuccessOut):
    users: list[UserOut]


class UserCreatedOut(SuccessOut):
    message: str
    user: UserOut


class UserUpdatedOut(UserCreatedOut):
    """A user who changed their own password gets a fresh token (older ones stopped working)."""

    token: str = omitted()
    expiresIn: int = omitted()


ROLE_VALUES = [role.value for role in Role]
STATUS_VALUES = ["active", "inactive", "suspended"]


def _clean_role(value, *, required: bool):
    if value in (None, ""):
        if required:
            raise ValueError("Please select a role")
        return None
    if not isinstance(value, str) or value not in ROLE_VALUES:
        raise ValueError("Role must be one of admin, editor, author, viewer")
    return value


def _clean_status(value):
    if value in (None, ""):
        return None
    if not isinstance(value, str) or value not in STATUS_VALUES:
        raise ValueError("Status must be one of active, inactive, suspended")
    return value


def _clean_current_password(value):
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ValueError("Current password is incorrect")
    return value


RoleIn = Annotated[str, BeforeValidator(lambda value: _clean_role(value, required=True))]
OptionalRole = Annotated[str | None, BeforeValidator(lambda value: _clean_role(value, required=False))]
OptionalStatus = Annotated[str | None, BeforeValidator(_clean_status)]
CurrentPassword = Annotated[str | None, BeforeValidator(_clean_current_password)]


class UserCreateIn(InSchema):
    username: Username = ""
    email: Email = ""
    password: Password = ""
    role: RoleIn = ""


class UserUpdateIn(InSchema):
    """Partial: a key left out (or a blank password) keeps the value."""

    username: OptionalUsername = None
    email: OptionalEmail = None
    password: OptionalPassword = None
    role: OptionalRole = None
    status: OptionalStatus = None
    # (+) needed when users change their own password or email (OWASP ASVS 6.2.3)
    currentPassword: CurrentPassword = None

    def service_kwargs(self) -> dict:
        return snake_case_fields(self)
