"""The console's sessions, kept on the server (OperatorSession, public schema).

The browser's cookie (`cms_operator`: HttpOnly, SameSite=Strict, Secure over HTTPS, path
`/operator/`) holds a random key, signed; the server keeps only the key's SHA-256, with the account,
the step reached and the times. Nothing in the cookie decides who the operator is: the row does, so
a cookie cannot be altered to name another operator, and a company's token or cookie means
nothing here.

A session is refused once it is revoked (signed out, its password step used by the code step, the
password changed, signed out everywhere), after OPERATOR_SESSION_IDLE_SECONDS without a request,
at its absolute end (OPERATOR_SESSION_SECONDS after the code; OPERATOR_PASSWORD_STEP_SECONDS for
the step between password and code), when the account is deactivated, or when the account's
password, authenticator key or session version is no longer the one it was started under: a
password change or a new authenticator key ends every session, wherever it changed.
"""
from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

from lifecycle.operator.models import OperatorAccount, OperatorSession

COOKIE = "cms_operator"
SALT = "cms.operator.session.v2"  # cookies of the stateless first form name no session: refused
PASSWORD, CODE = OperatorSession.Step.PASSWORD, OperatorSession.Step.CODE
KEEP_DAYS = 30  # ended sessions are deleted this long after their end (at a sign-in)


def _key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def binding_of(account: OperatorAccount) -> str:
    """The account's sign-in state a session is bound to: its password (hash), its authenticator
    key and its session version (a keyed digest; none of them can be read back from it)."""
    state = f"{account.pk}:{account.password}:{account.totp_secret}:{account.session_version}"
    return salted_hmac("cms.operator.session.binding", state, algorithm="sha256").hexdigest()


def lifetime(step: str) -> int:
    return settings.OPERATOR_PASSWORD_STEP_SECONDS if step == PASSWORD else settings.OPERATOR_SESSION_SECONDS


def session_start(*, account: OperatorAccount, step: str, ip: str = "", user_agent: str = "") -> tuple[
        OperatorSession, str]:
    """A new session of the account at `step`, and the key its cookie carries (returned once)."""
    key = secrets.token_urlsafe(32)
    now = timezone.now()
    row = OperatorSession.objects.create(
        operator=account, key_hash=_key_hash(key), step=step, binding=binding_of(account), ip=ip[:45],
        user_agent=(user_agent or "")[:200], created_at=now, last_seen_at=now,
        expires_at=now + timedelta(seconds=lifetime(step)))
    return row, key


def refusal(row: OperatorSession, *, step: str, now=None) -> str:
    """Why the session cannot be used at `step` ("" when it can): its account (loaded) decides."""
    now = now or timezone.now()
    if row.revoked_at is not None:
        return "revoked"
    if row.step != step:
        return "step"
    if now >= row.expires_at:
        return "expired"
    if step == CODE and now - row.last_seen_at > timedelta(seconds=settings.OPERATOR_SESSION_IDLE_SECONDS):
        return "idle"
    account = row.operator
    if not account.active:
        return "inactive"
    if not constant_time_compare(row.binding, binding_of(account)):
        return "credentials_changed"
    return ""


def session_of(request) -> OperatorSession | None:
    """The session the request's cookie names (with its account), whatever its state: None for no
    cookie, a cookie not signed by the server, or a key no session has."""
    try:
        data = signing.loads(request.COOKIES.get(COOKIE, ""), salt=SALT,
                             max_age=max(settings.OPERATOR_SESSION_SECONDS, settings.OPERATOR_PASSWORD_STEP_SECONDS))
    except signing.BadSignature:
        return None
    key = data.get("k") if isinstance(data, dict) else None
    if not isinstance(key, str) or not key:
        return None
    row = OperatorSession.objects.select_related("operator").filter(key_hash=_key_hash(key)).first()
    if row is None or row.operator_id != data.get("o"):
        return None
    return row


def session_get(request, *, step: str = CODE) -> OperatorSession | None:
    """The request's session if it is usable at `step` (its operator is `.operator`); a signed-in
    console session's last use is moved to now (the idle timeout counts from it)."""
    row = session_of(request)
    if row is None or refusal(row, step=step):
        return None
    if step == CODE:
        row.last_seen_at = timezone.now()
        OperatorSession.objects.filter(pk=row.pk, revoked_at__isnull=True).update(last_seen_at=row.last_seen_at)
    return row


def session_revoke(row: OperatorSession, *, why: str) -> bool:
    """End the session (True: it was open until now)."""
    return bool(OperatorSession.objects.filter(pk=row.pk, revoked_at__isnull=True)
                .update(revoked_at=timezone.now(), revoked_why=why[:30]))


def sessions_revoke_all(account: OperatorAccount, *, why: str, keep: OperatorSession | None = None) -> int:
    """End every open session of the account (but `keep`): how many were open."""
    rows = OperatorSession.objects.filter(operator=account, revoked_at__isnull=True)
    if keep is not None:
        rows = rows.exclude(pk=keep.pk)
    return rows.update(revoked_at=timezone.now(), revoked_why=why[:30])


def sessions_open(account: OperatorAccount):
    """The account's sessions that can still be used (signed in; newest first)."""
    now = timezone.now()
    return OperatorSession.objects.filter(
        operator=account, step=CODE, revoked_at__isnull=True, expires_at__gt=now,
        last_seen_at__gte=now - timedelta(seconds=settings.OPERATOR_SESSION_IDLE_SECONDS))


def sessions_purge() -> int:
    """Delete the sessions that ended more than KEEP_DAYS ago."""
    before = timezone.now() - timedelta(days=KEEP_DAYS)
    return OperatorSession.objects.filter(expires_at__lt=before).delete()[0]


def cookie_set(response, row: OperatorSession, key: str) -> None:
    value = signing.dumps({"k": key, "o": row.operator_id}, salt=SALT)
    response.set_cookie(COOKIE, value, max_age=lifetime(row.step), httponly=True, samesite="Strict",
                        secure=settings.PUBLIC_SCHEME == "https", path="/operator/")


def cookie_clear(response) -> None:
    response.delete_cookie(COOKIE, path="/operator/", samesite="Strict")
