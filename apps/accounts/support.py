"""Support access: a company admin's consent, for a limited time, to the platform's operators
signing in as one of the company's users (docs/operator-console.md#signing-in-as-a-user).

- `support_grant_create` (1 to SUPPORT_GRANT_MAX_HOURS hours; a new grant replaces the open one)
  and `support_grant_revoke` (every session it allowed ends at once): the admin, in Settings.
- `support_session_start`: the operator console, only under an open grant, for an active user;
  returns a one-time link token valid SUPPORT_LINK_SECONDS (signed, naming the session).
- `support_session_exchange`: the dashboard trades the link token, once, for a session token of
  the user that carries the session's id and ends at the grant's end or after
  SUPPORT_SESSION_SECONDS, whichever is first.
- `support_session_check`: every request with such a token (apps.accounts.auth): the session must
  not be ended, its grant neither revoked nor over; what the request writes to the audit log is
  named "support (operator) as user".
No password is read, revealed or set: the session token is issued as a sign-in issues one.
"""
from __future__ import annotations

import uuid
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.db import connection, transaction
from django.utils import timezone

from apps.accounts.models import SupportGrant, SupportSession, User
from apps.accounts.tokens import token_issue
from apps.core import db, events
from apps.core.errors import NotFound, PermissionDenied, Unauthorized, ValidationFailed
from apps.core.logging import support_operator_var

LINK_SALT = "cms.support.link"
HOURS = "Support access lasts from 1 to {most} hours"
NO_GRANT = "The company has not granted support access, or it has ended"
USER_NOT_ACTIVE = "Only an active user can be signed in as"
LINK_INVALID = "This support link is invalid, was used already or has expired"
SESSION_ENDED = "The support session has ended"
NOT_SUPPORT = "This is not a support session"
NO_TWO_FACTOR = "Support cannot change a user's two-factor sign-in"
TWO_FACTOR_PATHS = ("/api/auth/2fa",)


def _uuid(value) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value))
    except (TypeError, ValueError, AttributeError):
        return None


def _open_grants(at):
    """The company's open grants (not revoked, not over at `at`): one, but for a grant made while
    another was being replaced before grants took the company's lock."""
    return SupportGrant.objects.filter(revoked_at__isnull=True, expires_at__gt=at)


def support_grant_active() -> SupportGrant | None:
    """The company's open grant, if any."""
    return _open_grants(timezone.now()).first()


@transaction.atomic
def support_grant_create(*, actor: User, hours: int) -> SupportGrant:
    most = settings.SUPPORT_GRANT_MAX_HOURS
    if not isinstance(hours, int) or isinstance(hours, bool) or not 1 <= hours <= most:
        raise ValidationFailed(HOURS.format(most=most), field="hours")
    # Two admins granting at once: the second waits, then replaces the first's grant (one open grant).
    db.company_lock("support-grant")
    _revoke_open(at=timezone.now())
    grant = SupportGrant.objects.create(granted_by=actor, granted_by_name=actor.username,
                                        expires_at=timezone.now() + timedelta(hours=hours))
    events.publish(events.SupportAccessChanged(change="granted", actor=actor,
                                               summary=f"for {hours} h, until {grant.expires_at:%Y-%m-%d %H:%M} UTC"))
    return grant


def _revoke_open(*, at) -> list[SupportSession]:
    """Revoke the open grants; returns the sessions that were still open (now ended)."""
    grants = list(_open_grants(at).select_for_update())
    if not grants:
        return []
    sessions = list(SupportSession.objects.select_related("user").filter(grant__in=grants, ended_at__isnull=True,
                                                                        ends_at__gt=at))
    SupportSession.objects.filter(pk__in=[s.pk for s in sessions]).update(ended_at=at)
    SupportGrant.objects.filter(pk__in=[g.pk for g in grants]).update(revoked_at=at)
    return sessions


@transaction.atomic
def support_grant_revoke(*, actor: User) -> list[SupportSession]:
    """Revoke the open grant: its sessions end at once (their tokens stop working). Returns them."""
    db.company_lock("support-grant")
    ended = _revoke_open(at=timezone.now())
    events.publish(events.SupportAccessChanged(change="revoked", actor=actor,
                                               summary=f"{len(ended)} open support session(s) ended"))
    for session in ended:
        events.publish(events.SupportAccessChanged(change="ended", actor=session.user, operator=session.operator_email,
                                                   summary="support access revoked"))
    return ended


def support_sessions(grant: SupportGrant | None) -> list[SupportSession]:
    if grant is None:
        return []
    return list(SupportSession.objects.select_related("user").filter(grant=grant))


@transaction.atomic
def support_session_start(*, operator_email: str, user_id) -> tuple[SupportSession, str]:
    """An operator signs in as a user (the console, in the company's schema): refused without an
    open grant; the session ends at the grant's end or after SUPPORT_SESSION_SECONDS."""
    grant = _open_grants(timezone.now()).select_for_update().first()
    if grant is None:
        raise PermissionDenied(NO_GRANT)
    wanted = _uuid(user_id)
    user = User.objects.filter(pk=wanted).first() if wanted else None
    if user is None:
        raise NotFound("User not found")
    if user.status != User.Status.ACTIVE:
        raise PermissionDenied(USER_NOT_ACTIVE)
    ends_at = min(grant.expires_at, timezone.now() + timedelta(seconds=settings.SUPPORT_SESSION_SECONDS))
    session = SupportSession.objects.create(grant=grant, user=user, operator_email=operator_email, ends_at=ends_at)
    events.publish(events.SupportAccessChanged(change="started", actor=user, operator=operator_email,
                                               summary=f"until {ends_at:%Y-%m-%d %H:%M} UTC"))
    link = signing.dumps({"s": str(session.pk), "t": connection.schema_name}, salt=LINK_SALT)
    return session, link


def _open(session: SupportSession, now) -> bool:
    grant = session.grant
    return (session.ended_at is None and session.ends_at > now and grant.revoked_at is None
            and grant.expires_at > now)


@transaction.atomic
def support_session_exchange(*, token: str) -> tuple[str, int, SupportSession]:
    """The console's one-time link token -> a session token of the user (once; within its minutes)."""
    try:
        data = signing.loads(token or "", salt=LINK_SALT, max_age=settings.SUPPORT_LINK_SECONDS)
    except signing.BadSignature as exc:
        raise Unauthorized(LINK_INVALID) from exc
    if not isinstance(data, dict) or data.get("t") != connection.schema_name:
        raise Unauthorized(LINK_INVALID)
    now, sid = timezone.now(), _uuid(data.get("s"))
    session = (SupportSession.objects.select_for_update(of=("self",)).select_related("grant", "user")
               .filter(pk=sid, exchanged_at__isnull=True).first()) if sid else None
    if session is None or not _open(session, now) or session.user.status != User.Status.ACTIVE:
        raise Unauthorized(LINK_INVALID)
    session.exchanged_at = now
    session.save(update_fields=["exchanged_at"])
    lifetime = max(1, int((session.ends_at - now).total_seconds()))
    token, expires_in = token_issue(user=session.user, schema_name=connection.schema_name, expires_in=lifetime,
                                    extra={"support": {"sid": str(session.pk), "operator": session.operator_email}})
    return token, expires_in, session


def support_session_check(request, claims: dict) -> SupportSession | None:
    """A token of a support session (apps.accounts.auth): 401 once the session is over."""
    support = claims.get("support")
    if support is None:
        return None
    sid = _uuid(support.get("sid")) if isinstance(support, dict) else None
    session = SupportSession.objects.select_related("grant").filter(pk=sid).first() if sid else None
    if session is None or str(session.user_id) != str(claims.get("userId")) or not _open(session, timezone.now()):
        raise Unauthorized(SESSION_ENDED)
    if request.method not in ("GET", "HEAD", "OPTIONS") and request.path_info.startswith(TWO_FACTOR_PATHS):
        raise PermissionDenied(NO_TWO_FACTOR)  # the user's own sign-in stays theirs
    support_operator_var.set(session.operator_email)
    request.support_session = session
    return session


@transaction.atomic
def support_session_end(*, request) -> SupportSession:
    """The operator ends their support session (the dashboard's banner): its token stops working."""
    session = getattr(request, "support_session", None)
    if session is None:
        raise PermissionDenied(NOT_SUPPORT)
    SupportSession.objects.filter(pk=session.pk, ended_at__isnull=True).update(ended_at=timezone.now())
    events.publish(events.SupportAccessChanged(change="ended", actor=request.auth, operator=session.operator_email,
                                               summary="ended by support"))
    return session
