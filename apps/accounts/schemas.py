from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import field_validator

from apps.core.permissions import Role
from apps.core.schemas import InSchema, OutSchema, SuccessOut, omitted
from apps.core.validation import clean_email, clean_password, clean_username


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


class UserCreateIn(InSchema):
    username: str = ""
    email: str = ""
    password: str = ""
    role: str = ""

    @field_validator("username", mode="before")
    @classmethod
    def _username(cls, value):
        return clean_username(value)

    @field_validator("email", mode="before")
    @classmethod
    def _email(cls, value):
        return clean_email(value)

    @field_validator("password", mode="before")
    @classmethod
    def _password(cls, value):
        return clean_password(value)

    @field_validator("role", mode="before")
    @classmethod
    def _role(cls, value):
        return _clean_role(value, required=True)


class UserUpdateIn(InSchema):
    username: str | None = None
    email: str | None = None
    password: str | None = None
    role: str | None = None
    status: str | None = None
    # (+) needed when users change their own password or email (OWASP ASVS 6.2.3)
    currentPassword: str | None = None

    @field_validator("currentPassword", mode="before")
    @classmethod
    def _current_password(cls, value):
        if value is None or value == "":
            return None
        if not isinstance(value, str):
            raise ValueError("Current password is incorrect")
        return value

    def service_kwargs(self) -> dict:
        return {"username": self.username, "email": self.email, "password": self.password, "role": self.role,
                "status": self.status, "current_password": self.currentPassword}

    @field_validator("username", mode="before")
    @classmethod
    def _username(cls, value):
        return None if value is None else clean_username(value)

    @field_validator("email", mode="before")
    @classmethod
    def _email(cls, value):
        return None if value is None else clean_email(value)

    @field_validator("password", mode="before")
    @classmethod
    def _password(cls, value):
        # A blank password keeps the current one (a value of another type is refused, not ignored).
        return None if value is None or value == "" else clean_password(value)

    @field_validator("role", mode="before")
    @classmethod
    def _role(cls, value):
        return _clean_role(value, required=False)

    @field_validator("status", mode="before")
    @classmethod
    def _status(cls, value):
        if value in (None, ""):
            return None
        if not isinstance(value, str) or value not in STATUS_VALUES:
            raise ValueError("Status must be one of active, inactive, suspended")
        return value



class ForgotPasswordIn(InSchema):
    email: str = ""

    @field_validator("email", mode="before")
    @classmethod
    def _email(cls, value):
        return clean_email(value)


class ResetLinkIn(InSchema):
    """The two parts of an emailed password reset link (`uid`, `token` of its query)."""

    uid: str = ""
    token: str = ""

    @field_validator("uid", "token", mode="before")
    @classmethod
    def _part(cls, value):
        if not isinstance(value, str) or not value.strip() or len(value) > 200:
            raise ValueError("This password reset link is invalid or has expired. Please ask for a new one.")
        return value.strip()


class ResetPasswordIn(ResetLinkIn):
    password: str = ""

    @field_validator("password", mode="before")
    @classmethod
    def _password(cls, value):
        return clean_password(value)


class ResetLinkOut(SuccessOut):
    """The link is valid: whose account it is for (shown on the form)."""

    email: str
    username: str
