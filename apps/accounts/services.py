from __future__ import annotations

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.db.models.functions import Lower
from django.utils import timezone

from apps.accounts.models import User
from apps.accounts.selectors import USER_NOT_FOUND, user_get_by_email
from apps.accounts.tokens import token_issue
from apps.audit.services import audit_record
from apps.core import ratelimit
from apps.core.errors import (
    Conflict, ErrorCode, NotFound, PermissionDenied, RateLimited, Unauthorized, ValidationFailed,
)
from apps.core.permissions import Role, can

EMAIL_TAKEN = "A user with this email already exists"
USERNAME_TAKEN = "This username is already taken"
CANNOT_EDIT = "You don't have permission to edit this user"
CANNOT_VIEW = "You don't have permission to view this user"
CANNOT_DELETE_SELF = "You cannot delete your own account"
CANNOT_DELETE = "You don't have permission to delete users"
LAST_ADMIN = "The company must keep at least one active admin"
ROLE_CHANGE_DENIED = "Only administrators can change a user's role or status"
CURRENT_PASSWORD_REQUIRED = "Current password is required to change your password or email"
CURRENT_PASSWORD_WRONG = "Current password is incorrect"
# Compared against when the email is unknown, so both paths take the same time.
_DUMMY_HASH = make_password("not-a-real-password")


def _check_unique(*, email: str, username: str, exclude_id=None) -> None:
    others = User.objects.exclude(pk=exclude_id) if exclude_id else User.objects.all()
    if others.filter(email=email).exists():
        raise Conflict(EMAIL_TAKEN, errors=[{"field": "email", "message": EMAIL_TAKEN}],
                       detail=ErrorCode.EMAIL_TAKEN)
    if others.annotate(lname=Lower("username")).filter(lname=username.lower()).exists():
        raise Conflict(USERNAME_TAKEN, errors=[{"field": "username", "message": USERNAME_TAKEN}],
                       detail=ErrorCode.USERNAME_TAKEN)


@transaction.atomic
def user_create(*, username: str, email: str, password: str, role: str = Role.VIEWER,
                status: str = User.Status.ACTIVE, actor=None) -> User:
    _check_unique(email=email, username=username)
    try:
        with transaction.atomic():
            user = User.objects.create(
                username=username, email=email, password=make_password(password), role=role, status=status
            )
    except IntegrityError as exc:  # a concurrent insert won the race
        raise Conflict(EMAIL_TAKEN, detail=ErrorCode.EMAIL_TAKEN) from exc
    if actor is not None:
        audit_record(action="user.created", actor=actor, object_type="user", object_id=user.pk,
                     summary=f"{user.username} ({user.role})")
    return user


def _lock_active_admins() -> set:
    """Lock every active admin row, in id order (so two transactions never wait on each other
    in a cycle), until commit, and return their ids. Every write that needs admin rights, or
    that can take an admin away (demote, suspend, deactivate, delete), takes this lock first: the
    last-admin rule and the actor's own rights are then checked on rows no one else can change
    meanwhile. A row another transaction demoted while we waited is re-checked by PostgreSQL
    and left out."""
    return set(
        User.objects.select_for_update()
        .filter(role=Role.ADMIN, status=User.Status.ACTIVE)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _locked_user(pk) -> User:
    try:
        return User.objects.select_for_update().get(pk=pk)
    except User.DoesNotExist as exc:  # deleted by a concurrent request
        raise NotFound(USER_NOT_FOUND) from exc


def _would_leave_no_admin(user: User, admins: set, *, role: str, status: str) -> bool:
    removed = user.pk in admins and (role != Role.ADMIN or status != User.Status.ACTIVE)
    return removed and not (admins - {user.pk})


@transaction.atomic
def user_update(*, actor: User, user: User, username: str | None = None, email: str | None = None,
                password: str | None = None, role: str | None = None, status: str | None = None,
                current_password: str | None = None) -> User:
    is_admin = can(actor, "users.manage")
    if not is_admin and actor.pk != user.pk:
        raise PermissionDenied(CANNOT_EDIT)
    if not is_admin and ((role and role != user.role) or (status and status != user.status)):
        raise PermissionDenied(ROLE_CHANGE_DENIED)

    admins = _lock_active_admins() if is_admin else set()
    if is_admin and actor.pk not in admins:  # demoted, suspended or deleted by a concurrent request
        raise PermissionDenied(CANNOT_EDIT)
    user = _locked_user(user.pk)
    new_username = username if username else user.username
    new_email = email if email else user.email
    if actor.pk == user.pk and (password or new_email != user.email):
        _check_current_password(user, current_password)
    _check_unique(email=new_email, username=new_username, exclude_id=user.pk)

    new_role = role or user.role
    new_status = status or user.status
    if _would_leave_no_admin(user, admins, role=new_role, status=new_status):
        raise Conflict(LAST_ADMIN, detail=ErrorCode.LAST_ADMIN)

    _audit_user_changes(actor, user, username=new_username, email=new_email, password=bool(password),
                        role=new_role, status=new_status)
    bump = False
    if password:  # a blank password keeps the old one
        user.password = make_password(password)
        bump = True
    if new_status != user.status and new_status != User.Status.ACTIVE:
        bump = True
    user.username, user.email, user.role, user.status = new_username, new_email, new_role, new_status
    if bump:
        user.token_version = F("token_version") + 1
    user.save()
    user.refresh_from_db()
    return user


def _audit_user_changes(actor: User, user: User, *, username: str, email: str, password: bool, role: str,
                        status: str) -> None:
    """One entry per kind of change: the role, the status, and the rest (names the fields)."""
    if role != user.role:
        audit_record(action="user.role_changed", actor=actor, object_type="user", object_id=user.pk,
                     summary=f"{username}: {user.role} -> {role}")
    if status != user.status:
        audit_record(action="user.status_changed", actor=actor, object_type="user", object_id=user.pk,
                     summary=f"{username}: {user.status} -> {status}")
    changed = [name for name, differs in (("username", username != user.username), ("email", email != user.email),
                                          ("password", password)) if differs]
    if changed:
        audit_record(action="user.updated", actor=actor, object_type="user", object_id=user.pk,
                     summary=f"{username}: {', '.join(changed)}")


@transaction.atomic
def user_delete(*, actor: User, user: User) -> None:
    if actor.pk == user.pk:
        raise PermissionDenied(CANNOT_DELETE_SELF)
    if not can(actor, "users.manage"):
        raise PermissionDenied(CANNOT_DELETE)
    admins = _lock_active_admins()
    if actor.pk not in admins:  # demoted, suspended or deleted by a concurrent request
        raise PermissionDenied(CANNOT_DELETE)
    user = _locked_user(user.pk)
    if _would_leave_no_admin(user, admins, role="", status=""):
        raise Conflict(LAST_ADMIN, detail=ErrorCode.LAST_ADMIN)
    audit_record(action="user.deleted", actor=actor, object_type="user", object_id=user.pk,
                 summary=f"{user.username} ({user.role})")
    user.delete()


def _check_current_password(user: User, current_password: str | None) -> None:
    """Users changing their own password or email prove they know the current password (a
    stolen session alone must not take the account over). Wrong guesses are throttled per user
    as failed logins are (LOGIN_MAX_FAILURES per LOGIN_FAILURE_WINDOW)."""
    if not current_password:
        raise ValidationFailed(CURRENT_PASSWORD_REQUIRED, field="currentPassword")
    if not password_confirms(user, current_password):
        raise ValidationFailed(CURRENT_PASSWORD_WRONG, field="currentPassword")


def password_confirms(user: User, password: str) -> bool:
    """Whether a signed-in user typed their own password again (before a sensitive change). Wrong
    guesses are throttled per user as failed logins are (LOGIN_MAX_FAILURES per
    LOGIN_FAILURE_WINDOW): 429 once they are used up."""
    limit = ratelimit.rate(settings.LOGIN_MAX_FAILURES, settings.LOGIN_FAILURE_WINDOW)
    key = ("current-password-failures", connection.schema_name, str(user.pk))
    wait = ratelimit.is_blocked(limit, *key)
    if wait:
        raise _too_many(wait)
    if check_password(password, user.password):
        return True
    ratelimit.hit(limit, *key)
    return False


def _too_many(wait: int, attempts: str = "attempts") -> RateLimited:
    return RateLimited(f"Too many failed {attempts}. Please try again in {ratelimit.wait_phrase(wait)}.",
                       retry_after=wait)


def _login_limits(*, schema: str, email: str, ip: str) -> list[tuple]:
    """(limit, key, cleared by a success) of every failed-login counter an attempt is checked
    against:
    - the account from this address (LOGIN_MAX_FAILURES per LOGIN_FAILURE_WINDOW): a guesser is
      stopped without locking the owner out, who signs in from another address;
    - this address, whatever the account (LOGIN_MAX_FAILURES_PER_IP per LOGIN_FAILURE_WINDOW):
      one address cannot try a password on many accounts;
    - the account from every address together (LOGIN_MAX_FAILURES_PER_ACCOUNT per
      LOGIN_ACCOUNT_FAILURE_WINDOW): the ceiling on guessing spread over many addresses. A right
      password does not reset it, or a guesser would get a fresh allowance each time the owner
      signs in."""
    window = settings.LOGIN_FAILURE_WINDOW
    return [
        (ratelimit.rate(settings.LOGIN_MAX_FAILURES, window), ("login-failures", schema, email, ip), True),
        (ratelimit.rate(settings.LOGIN_MAX_FAILURES_PER_IP, window), ("login-failures-ip", ip), False),
        (ratelimit.rate(settings.LOGIN_MAX_FAILURES_PER_ACCOUNT, settings.LOGIN_ACCOUNT_FAILURE_WINDOW),
         ("login-failures-account", schema, email), False),
    ]


def auth_login(*, email: str, password: str, ip: str) -> tuple[str, int, User]:
    """Check credentials; failed attempts are throttled (see _login_limits)."""
    schema = connection.schema_name
    email = email.strip().lower()
    limits = _login_limits(schema=schema, email=email, ip=ip)
    wait = max(ratelimit.is_blocked(limit, *key) for limit, key, _ in limits)
    if wait:
        raise _too_many(wait, "login attempts")

    user = user_get_by_email(email)
    valid = check_password(password, user.password if user else _DUMMY_HASH)
    if not user or not valid:
        for limit, key, _ in limits:
            ratelimit.hit(limit, *key)
        # The typed address only when it names a user of the company (no free text from strangers).
        audit_record(action="auth.login_failed", actor=None, object_type="user" if user else "",
                     object_id=user.pk if user else None, actor_name=user.username if user else "",
                     summary="Wrong password" if user else "Unknown email")
        raise Unauthorized("Invalid email or password", detail=ErrorCode.INVALID_CREDENTIALS)
    if user.status != User.Status.ACTIVE:
        audit_record(action="auth.login_failed", actor=None, object_type="user", object_id=user.pk,
                     actor_name=user.username, summary=f"Account {user.status}")
        raise PermissionDenied(f"Your account is {user.status}. Please contact your administrator.")

    for limit, key, cleared in limits:
        if cleared:
            ratelimit.clear(limit, *key)
    User.objects.filter(pk=user.pk).update(last_login=timezone.now())
    user.refresh_from_db(fields=["last_login"])
    audit_record(action="auth.login", actor=user, object_type="user", object_id=user.pk, summary=user.username)
    token, expires_in = token_issue(user=user, schema_name=schema)
    return token, expires_in, user
