from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BeforeValidator, field_validator

from apps.core.permissions import Role
from apps.core.schemas import InSchema, OutSchema, SuccessOut, omitted, snake_case_fields
from apps.core.validation import (Email, OptionalEmail, OptionalPassword, OptionalUsername, Password, Username,
                                  clean_email)
from apps.site import rules as site_rules


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
    """The User object of the wire contract (docs/api/index.md, Objects; `id` and `userId` are the same value)."""

    id: str
    userId: str
    username: str
    email: str
    role: RoleName
    status: StatusName
    lastLogin: datetime | None
    createdAt: datetime
    twoFactorEnabled: bool  # (+) two-factor sign-in is on

    @staticmethod
    def from_user(user) -> "UserOut":
        return UserOut(
            id=str(user.id), userId=str(user.id), username=user.username, email=user.email, role=user.role,
            status=user.status, lastLogin=user.last_login, createdAt=user.created_at,
            twoFactorEnabled=user.two_factor_enabled_at is not None,
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


class SupportOut(OutSchema):
    """(+) The request is an operator's support session as this user (apps.accounts.support)."""

    operator: str
    endsAt: datetime


class MeOut(UserReplyOut):
    """GET auth/me: the user and (+) what their role may do (apps.core.permissions.CAPABILITIES), (+)
    whether they have two-factor sign-in on and whether their company requires it, (+) and, in a
    support session, the operator and its end (the dashboard's banner)."""

    capabilities: list[str]
    twoFactorEnabled: bool
    twoFactorRequired: bool
    support: SupportOut | None = omitted()


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


def _clean_link_part(value):
    if not isinstance(value, str) or not value.strip() or len(value) > 200:
        raise ValueError("This link is invalid or has expired. Please ask for a new one.")
    return value.strip()


LinkPart = Annotated[str, BeforeValidator(_clean_link_part)]


class ForgotPasswordIn(InSchema):
    email: Email = ""


class ResetLinkIn(InSchema):
    """The two parts of an emailed password reset link (`uid`, `token` of its query)."""

    uid: LinkPart = ""
    token: LinkPart = ""


class ResetPasswordIn(ResetLinkIn):
    password: Password = ""


class ResetLinkOut(SuccessOut):
    """The link is valid: whose account it is for (shown on the form)."""

    email: str
    username: str


class InvitationIn(InSchema):
    email: Email = ""
    role: RoleIn = ""


class InvitationOut(OutSchema):
    id: str
    email: str
    role: RoleName
    invitedBy: str | None
    sentAt: datetime
    expiresAt: datetime
    expired: bool

    @staticmethod
    def from_invitation(invitation) -> "InvitationOut":
        from django.utils import timezone

        return InvitationOut(
            id=str(invitation.id), email=invitation.email, role=invitation.role,
            invitedBy=invitation.invited_by.username if invitation.invited_by else None,
            sentAt=invitation.sent_at, expiresAt=invitation.expires_at,
            expired=invitation.expires_at <= timezone.now(),
        )


class InvitationReplyOut(SuccessOut):
    message: str
    invitation: InvitationOut


class InvitationListOut(SuccessOut):
    invitations: list[InvitationOut]


class InvitationTokenIn(InSchema):
    token: LinkPart = ""


class InvitationCheckOut(SuccessOut):
    """The invitation is valid: the address and role the account will have."""

    email: str
    role: RoleName


class InvitationAcceptIn(InvitationTokenIn):
    username: Username = ""
    password: Password = ""


# --- two-factor sign-in (apps.accounts.two_factor) ------------------------------------------------------
def _clean_code(value):
    if not isinstance(value, str) or not value.strip():
        raise ValueError("Enter the 6-digit code from your authenticator app (or a recovery code)")
    if len(value) > 40:
        raise ValueError("That code is not right. Check your authenticator app and try again.")
    return value.strip()


def _clean_challenge(value):
    if not isinstance(value, str) or not value.strip() or len(value) > 1000:
        raise ValueError("This sign-in attempt has expired. Please sign in again with your email and password.")
    return value.strip()


TwoFactorCode = Annotated[str, BeforeValidator(_clean_code)]
ChallengeToken = Annotated[str, BeforeValidator(_clean_challenge)]


class LoginTwoFactorIn(InSchema):
    """The second step of a sign-in: the challenge of the 403 `two_factor_required` and a code."""

    challengeToken: ChallengeToken = ""
    code: TwoFactorCode = ""


class TwoFactorCodeIn(InSchema):
    code: TwoFactorCode = ""


class TwoFactorDisableIn(InSchema):
    code: TwoFactorCode = ""
    password: str = ""

    @field_validator("password", mode="before")
    @classmethod
    def _password(cls, value):
        if not isinstance(value, str) or not value:
            raise ValueError("Password is required")
        return value


class TwoFactorStatusOut(SuccessOut):
    enabled: bool
    enabledAt: datetime | None
    recoveryCodesLeft: int
    required: bool  # the company requires it of everyone


class TwoFactorSetupOut(SuccessOut):
    """A new key for the authenticator app (not in use until confirmed with a code)."""

    message: str
    secret: str  # the manual key (base32)
    otpauthUri: str
    qrSvg: str  # the QR code of otpauthUri, an SVG document


class RecoveryCodesOut(SuccessOut):
    """Shown once: the 10 one-time recovery codes."""

    message: str
    recoveryCodes: list[str]


# --- author profiles (apps.accounts.profiles, docs/accounts.md#author-profile) ------------------------
class AuthorProfileIn(InSchema):
    """PUT users/{id}/profile: a field left out is kept, "" clears it. Images are a media id of the
    library (stored as its address) or an http(s) address; facebook and twitter a handle or a
    profile's address."""

    displayName: site_rules.DisplayName = None
    bio: site_rules.Bio = None
    profileImage: site_rules.ProfileImage = None
    coverImage: site_rules.CoverImage = None
    website: site_rules.ProfileWebsite = None
    location: site_rules.Location = None
    facebook: site_rules.Facebook = None
    twitter: site_rules.Twitter = None

    def service_kwargs(self) -> dict:
        return snake_case_fields(self)


class AuthorProfileOut(OutSchema):
    name: str  # what readers see: the display name, else the username
    displayName: str
    bio: str
    profileImage: str  # absolute addresses, "" when not set
    coverImage: str
    website: str
    location: str
    facebook: str  # the profiles' addresses
    twitter: str


class AuthorProfileReply(SuccessOut):
    """GET and PUT users/{id}/profile"""

    message: str = omitted()
    profile: AuthorProfileOut
