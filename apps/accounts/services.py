from __future__ import annotations

import hashlib
import secrets
import uuid
from datetime import timedelta
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.hashers import is_password_usable, make_password
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.db.models.functions import Lower
from django.utils import timezone

from apps.accounts.links import password_reset_tokens, uid_decode, uid_encode
from apps.accounts.models import Invitation, User
from apps.accounts.passwords import CURRENT_PASSWORD_WRONG, password_confirms, password_matches
from apps.accounts.passwords import too_many as _too_many
from apps.accounts.seats import seat_move, seats_check
from apps.accounts.selectors import USER_NOT_FOUND, user_get_by_email
from apps.accounts.tokens import token_issue
from apps.accounts.two_factor import CODE_REQUIRED, challenge_make
from apps.core import events, ratelimit
from apps.core.logging import support_operator_var
from apps.core.email import company_of_connection as email_company
from apps.core.email import email_queue
from apps.core.errors import (Conflict, ErrorCode, NotFound, PermissionDenied, Unauthorized,
                              ValidationFailed)
from apps.core.outbox import outbox_add
from apps.core.permissions import Role, can
from apps.core.selectors import get_or_404
from tenants.directory import directory_put, directory_remove

EMAIL_TAKEN = "A user with this email already exists"
USERNAME_TAKEN = "This username is already taken"
CANNOT_EDIT = "You don't have permission to edit this user"
CANNOT_VIEW = "You don't have permission to view this user"
CANNOT_DELETE_SELF = "You cannot delete your own account"
CANNOT_DELETE = "You don't have permission to delete users"
LAST_ADMIN = "The company must keep at least one active admin"
ROLE_CHANGE_DENIED = "Only administrators can change a user's role or status"
CURRENT_PASSWORD_REQUIRED = "Current password is required to change your password or email"
SUPPORT_NO_PASSWORD = "Support cannot set a password"


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
    seat_move(before=None, after=status)  # the plan's staff seats (apps.accounts.seats)
    try:
        with transaction.atomic():
            user = User.objects.create(
                username=username, email=email, password=make_password(password), role=role, status=status
            )
    except IntegrityError as exc:  # a concurrent insert won the race
        raise Conflict(EMAIL_TAKEN, detail=ErrorCode.EMAIL_TAKEN) from exc
    user_directory_sync(user=user)
    events.publish(events.UserChanged(user=user, change="created", actor=actor,
                                      summary=f"{user.username} ({user.role})"))
    return user


def user_directory_sync(*, user: User, deleted: bool = False) -> None:
    """Keep the public directory of accounts (tenants.AccountDirectory: which companies an email has an
    account in, read by the root domain's "find my companies") in step with one user of this company.
    Every create, change (email, status) and delete of a user goes through here, in its transaction;
    each statement names the public table only (never a company's table beside it)."""
    if deleted:
        directory_remove(schema_name=connection.schema_name, user_id=user.pk)
    else:
        directory_put(schema_name=connection.schema_name, user_id=user.pk, email=user.email,
                      active=user.status == User.Status.ACTIVE)


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
    if password and support_operator_var.get():  # an operator's support session (apps.accounts.support)
        raise PermissionDenied(SUPPORT_NO_PASSWORD)
    if actor.pk == user.pk and (password or new_email != user.email):
        _check_current_password(user, current_password)
    _check_unique(email=new_email, username=new_username, exclude_id=user.pk)

    new_role = role or user.role
    new_status = status or user.status
    if _would_leave_no_admin(user, admins, role=new_role, status=new_status):
        raise Conflict(LAST_ADMIN, detail=ErrorCode.LAST_ADMIN)
    seat_move(before=user.status, after=new_status)  # (re)activating takes a seat, deactivating frees it

    told = _user_changes(actor, user, username=new_username, email=new_email, password=bool(password),
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
    user_directory_sync(user=user)
    for event in told:
        events.publish(event)
    return user


def _user_changes(actor: User, user: User, *, username: str, email: str, password: bool, role: str,
                  status: str) -> list[events.UserChanged]:
    """One event per kind of change: the role, the status, and the rest (names the fields)."""
    found = []
    if role != user.role:
        found.append(("role_changed", f"{username}: {user.role} -> {role}"))
    if status != user.status:
        found.append(("status_changed", f"{username}: {user.status} -> {status}"))
    changed = [name for name, differs in (("username", username != user.username), ("email", email != user.email),
                                          ("password", password)) if differs]
    if changed:
        found.append(("updated", f"{username}: {', '.join(changed)}"))
    return [events.UserChanged(user=user, change=change, actor=actor, summary=summary) for change, summary in found]


def check_can_view(actor: User, user: User) -> None:
    """A user's own account, or any with `users.manage`."""
    if user.pk != actor.pk and not can(actor, "users.manage"):
        raise PermissionDenied(CANNOT_VIEW)


@transaction.atomic
def user_delete(*, actor: User, user: User) -> None:
    if actor.pk == user.pk:  # first: nobody deletes their own account, whatever their role
        raise PermissionDenied(CANNOT_DELETE_SELF)
    if not can(actor, "users.manage"):
        raise PermissionDenied(CANNOT_DELETE)
    admins = _lock_active_admins()
    if actor.pk not in admins:  # demoted, suspended or deleted by a concurrent request
        raise PermissionDenied(CANNOT_DELETE)
    user = _locked_user(user.pk)
    if _would_leave_no_admin(user, admins, role="", status=""):
        raise Conflict(LAST_ADMIN, detail=ErrorCode.LAST_ADMIN)
    user_directory_sync(user=user, deleted=True)
    User.objects.filter(pk=user.pk).delete()
    seat_move(before=user.status, after=None)  # gives back the seat it held, if any
    events.publish(events.UserChanged(user=user, change="deleted", actor=actor,
                                      summary=f"{user.username} ({user.role})"))


def _check_current_password(user: User, current_password: str | None) -> None:
    """Users changing their own password or email prove they know the current password (a
    stolen session alone must not take the account over). Wrong guesses are throttled per user
    as failed logins are (LOGIN_MAX_FAILURES per LOGIN_FAILURE_WINDOW)."""
    if not current_password:
        raise ValidationFailed(CURRENT_PASSWORD_REQUIRED, field="currentPassword")
    if not password_confirms(user, current_password):
        raise ValidationFailed(CURRENT_PASSWORD_WRONG, field="currentPassword")


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
    valid = password_matches(password, user.password if user else None)
    if not user or not valid:
        for limit, key, _ in limits:
            ratelimit.hit(limit, *key)
        # The typed address only when it names a user of the company (no free text from strangers).
        events.publish(events.SignInAttempted(user=user, outcome="login_failed",
                                              summary="Wrong password" if user else "Unknown email"))
        raise Unauthorized("Invalid email or password", detail=ErrorCode.INVALID_CREDENTIALS)
    if user.status != User.Status.ACTIVE:
        events.publish(events.SignInAttempted(user=user, outcome="login_failed", summary=f"Account {user.status}"))
        raise PermissionDenied(f"Your account is {user.status}. Please contact your administrator.")

    for limit, key, cleared in limits:
        if cleared:
            ratelimit.clear(limit, *key)
    if user.two_factor_enabled:
        # No token yet: the second step (POST /api/auth/login/2fa) takes this challenge and a code.

        challenge, expires_in = challenge_make(user)
        raise PermissionDenied(CODE_REQUIRED, detail=ErrorCode.TWO_FACTOR_REQUIRED,
                               extra={"challengeToken": challenge, "expiresIn": expires_in})
    User.objects.filter(pk=user.pk).update(last_login=timezone.now())
    user.refresh_from_db(fields=["last_login"])
    events.publish(events.SignInAttempted(user=user, outcome="login", summary=user.username))
    token, expires_in = token_issue(user=user, schema_name=schema)
    return token, expires_in, user


# --- Forgot password -------------------------------------------------------------------------------
RESET_REQUESTED = ("If an account with this email exists, we have sent it a link to choose a new password. "
                   "Check your inbox (and spam folder).")
RESET_LINK_INVALID = "This password reset link is invalid or has expired. Please ask for a new one."
RESET_DONE = "Your password has been changed. You can now sign in with it."
RESET_TASK = "accounts.password_reset_email"


def _valid_for(seconds: int) -> str:
    if seconds % 3600 == 0:
        hours = seconds // 3600
        return f"{hours} hour{'s' if hours != 1 else ''}"
    minutes = max(1, round(seconds / 60))
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def password_reset_request(*, email: str, ip: str) -> None:
    """Forgot password: throttled per client address and per email (PASSWORD_RESET_RATE_PER_IP,
    PASSWORD_RESET_RATE_PER_EMAIL, 429), known or not; then the lookup and the email are left to a
    task (password_reset_email), so the caller's reply (RESET_REQUESTED) and its time are the same
    for every address (as tenants.directory.find_companies_request)."""
    email = email.strip().lower()
    limits = [
        (ratelimit.parse_rate(settings.PASSWORD_RESET_RATE_PER_IP), ("reset-ip", ip)),
        (ratelimit.parse_rate(settings.PASSWORD_RESET_RATE_PER_EMAIL), ("reset-email", connection.schema_name, email)),
    ]
    ratelimit.spend(limits, "Too many requests. Please try again in {wait}.")
    # Through the outbox: the request is answered as usual with the broker down, and the lookup
    # runs (in this company's schema) once it is back.
    request_id = uuid.uuid4().hex
    outbox_add(task=RESET_TASK, args=[email, request_id], key=f"password-reset:{connection.schema_name}:{request_id}")


def password_reset_email(*, email: str, request_id: str | None = None) -> bool:
    """The task's body: email a reset link to the active user with this address, if there is one
    (nobody, or an inactive user: nothing is sent). True when an email was queued. One request
    queues one email, however often its task runs (`request_id` keys the message)."""
    user = user_get_by_email(email)
    if user is None or user.status != User.Status.ACTIVE:
        return False
    token = password_reset_tokens.make_token(user)
    company_name, base_url = email_company()
    url = f"{base_url}/reset-password?{urlencode({'uid': uid_encode(user.pk), 'token': token})}"
    with transaction.atomic():
        email_queue(kind="password_reset", to=user.email, company_name=company_name, base_url=base_url,
                    key=f"password-reset:{connection.schema_name}:{request_id}" if request_id else None,
                    context={"username": user.username, "email": user.email, "url": url,
                             "valid_for": _valid_for(settings.PASSWORD_RESET_TIMEOUT)})
    return True


def _user_of_link(uid: str, token: str) -> User:
    pk = uid_decode(uid) if uid else None
    user = None
    if pk:
        try:
            user = User.objects.select_for_update().filter(pk=uuid.UUID(pk)).first()
        except ValueError:
            user = None
    if user is None or user.status != User.Status.ACTIVE or not password_reset_tokens.check_token(user, token):
        raise ValidationFailed(RESET_LINK_INVALID, field="token", detail=ErrorCode.LINK_INVALID)
    return user


@transaction.atomic
def password_reset_check(*, uid: str, token: str) -> User:
    """The user a reset link is for, or 400 `link_invalid` (expired, used, altered, another company's)."""
    return _user_of_link(uid, token)


@transaction.atomic
def password_reset_confirm(*, uid: str, token: str, password: str) -> User:
    """Set the new password from a reset link. The link stops working (the token was made from the
    old password hash) and every session of the user ends (token version bumped)."""
    user = _user_of_link(uid, token)
    user.password = make_password(password)
    user.token_version = F("token_version") + 1
    user.save(update_fields=["password", "token_version", "updated_at"])
    user.refresh_from_db()
    return user


# --- Invitations -----------------------------------------------------------------------------------
INVITATION_NOT_FOUND = "Invitation not found"
INVITATION_INVALID = ("This invitation link is invalid, was already used or has expired. "
                      "Ask your administrator for a new one.")
INVITE_EMAIL_TAKEN = "A user with this email already exists"
ONLY_ADMINS_INVITE = "Only administrators can manage users"


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _send_invitation(invitation: Invitation, token: str, inviter: User | None) -> None:
    company_name, base_url = email_company()
    url = f"{base_url}/accept-invite?{urlencode({'token': token})}"
    email_queue(kind="invitation", to=invitation.email, company_name=company_name, base_url=base_url, context={
        "inviter": inviter.username if inviter else "An administrator", "role": invitation.role, "url": url,
        "valid_for": f"{settings.INVITATION_DAYS} day{'s' if settings.INVITATION_DAYS != 1 else ''}",
    })


@transaction.atomic
def invitation_create(*, actor: User, email: str, role: str) -> Invitation:
    """Invite an address with a role; an open invitation for the same address is replaced (its
    link stops working). 409 `email_taken` when a user already has the address."""
    email = email.strip().lower()
    if User.objects.filter(email=email).exists():
        raise Conflict(INVITE_EMAIL_TAKEN, errors=[{"field": "email", "message": INVITE_EMAIL_TAKEN}],
                       detail=ErrorCode.EMAIL_TAKEN)
    seats_check()  # the seat is taken when the invitation is accepted
    now = timezone.now()
    Invitation.objects.select_for_update().filter(
        email=email, accepted_at__isnull=True, revoked_at__isnull=True).update(revoked_at=now)
    token = secrets.token_urlsafe(32)
    try:
        with transaction.atomic():
            invitation = Invitation.objects.create(
                email=email, role=role, token_hash=_token_hash(token), invited_by=actor, sent_at=now,
                expires_at=now + timedelta(days=settings.INVITATION_DAYS))
    except IntegrityError as exc:  # a concurrent invitation of the same address won
        raise Conflict("This address was invited at the same moment. Reload the list.") from exc
    _send_invitation(invitation, token, actor)
    return invitation


def invitation_for_account(*, actor: User | None, user: User) -> Invitation:
    """Invite the owner of an account made without a password (an author brought in by a blog
    import: apps.portability), so they choose their username and password: accepting the invitation
    activates this very account, with the posts it already has. Called inside the caller's transaction."""
    if is_password_usable(user.password) or user.status != User.Status.INACTIVE:
        raise Conflict(INVITE_EMAIL_TAKEN, detail=ErrorCode.EMAIL_TAKEN)
    now = timezone.now()
    Invitation.objects.filter(email=user.email, accepted_at__isnull=True, revoked_at__isnull=True).update(revoked_at=now)
    token = secrets.token_urlsafe(32)
    invitation = Invitation.objects.create(
        email=user.email, role=user.role, token_hash=_token_hash(token), invited_by=actor, sent_at=now,
        expires_at=now + timedelta(days=settings.INVITATION_DAYS), user=user)
    _send_invitation(invitation, token, actor)
    return invitation


INVITE_NOT_WAITING = ("This account can already sign in (or was deactivated by an admin): only an account "
                      "made by a blog import that is waiting for its owner is invited this way")


@transaction.atomic
def user_invite(*, actor: User, user: User) -> Invitation:
    """Admins: invite the owner of an account that waits, inactive and without a password (made
    by a blog import that did not email its authors), from the Users screen. Accepting activates
    this very account, with its posts; the seat is taken then (403 `plan_limit` if none is left),
    and checked now as an invitation is. An account that has a password: 409."""
    if not can(actor, "users.manage"):
        raise PermissionDenied(ONLY_ADMINS_INVITE)
    user = User.objects.select_for_update().get(pk=user.pk)
    if is_password_usable(user.password) or user.status != User.Status.INACTIVE:
        raise Conflict(INVITE_NOT_WAITING)
    seats_check()
    return invitation_for_account(actor=actor, user=user)


def _open_invitation(invitation_id) -> Invitation:
    invitation = get_or_404(Invitation.objects.select_for_update().filter(
        accepted_at__isnull=True, revoked_at__isnull=True), invitation_id, INVITATION_NOT_FOUND)
    return invitation


@transaction.atomic
def invitation_resend(*, actor: User, invitation_id) -> Invitation:
    """A new link (the previous one stops working) and a new expiry date, emailed again."""
    invitation = _open_invitation(invitation_id)
    token = secrets.token_urlsafe(32)
    now = timezone.now()
    invitation.token_hash, invitation.sent_at = _token_hash(token), now
    invitation.expires_at = now + timedelta(days=settings.INVITATION_DAYS)
    invitation.save(update_fields=["token_hash", "sent_at", "expires_at"])
    _send_invitation(invitation, token, actor)
    return invitation


@transaction.atomic
def invitation_revoke(*, actor: User, invitation_id) -> None:
    invitation = _open_invitation(invitation_id)
    invitation.revoked_at = timezone.now()
    invitation.save(update_fields=["revoked_at"])


def _invitation_of_token(token: str, *, lock: bool = False) -> Invitation:
    queryset = Invitation.objects.filter(token_hash=_token_hash(token), accepted_at__isnull=True,
                                         revoked_at__isnull=True, expires_at__gt=timezone.now())
    invitation = (queryset.select_for_update() if lock else queryset).first()
    if invitation is None:
        raise ValidationFailed(INVITATION_INVALID, field="token", detail=ErrorCode.LINK_INVALID)
    return invitation


def invitation_check(*, token: str) -> Invitation:
    return _invitation_of_token(token)


def _account_claim(invitation: Invitation, *, username: str, password: str) -> User:
    user = User.objects.select_for_update().filter(pk=invitation.user_id, status=User.Status.INACTIVE).first()
    if user is None or is_password_usable(user.password):
        raise ValidationFailed(INVITATION_INVALID, field="token", detail=ErrorCode.LINK_INVALID)
    _check_unique(email=user.email, username=username, exclude_id=user.pk)
    seat_move(before=user.status, after=User.Status.ACTIVE)  # the seat is taken now (403 plan_limit if none)
    user.username, user.password, user.status = username, make_password(password), User.Status.ACTIVE
    user.save(update_fields=["username", "password", "status", "updated_at"])
    user_directory_sync(user=user)
    events.publish(events.UserChanged(user=user, change="status_changed", actor=user,
                                      summary=f"{user.username}: invitation accepted"))
    return user


def invitation_accept(*, token: str, username: str, password: str, ip: str) -> tuple[str, int, User]:
    """Create the invited user (the invitation's email and role, the chosen username and password)
    and sign them in. The link works once; attempts are throttled per client address."""
    ratelimit.spend([(ratelimit.parse_rate(settings.INVITATION_ACCEPT_RATE_PER_IP), ("invite-accept", ip))],
                    "Too many failed attempts. Please try again in {wait}.")
    with transaction.atomic():
        invitation = _invitation_of_token(token, lock=True)
        if invitation.user_id is not None:  # an account made by an import: it becomes theirs
            user = _account_claim(invitation, username=username, password=password)
        else:
            user = user_create(username=username, email=invitation.email, password=password, role=invitation.role)
        invitation.accepted_at, invitation.user = timezone.now(), user
        invitation.save(update_fields=["accepted_at", "user"])
        User.objects.filter(pk=user.pk).update(last_login=timezone.now())
        user.refresh_from_db()
    token_value, expires_in = token_issue(user=user, schema_name=connection.schema_name)
    return token_value, expires_in, user
