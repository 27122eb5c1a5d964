"""Two-factor sign-in: time-based one-time codes (TOTP, RFC 6238: 6 digits, 30-second steps, HMAC-SHA1,
as every authenticator app reads them) made and checked with pyotp; the QR code of the key drawn as
SVG by segno. pyotp, segno and cryptography (Fernet, which encrypts the keys) are imported by the first
call that needs them: a web worker that handles no two-factor step does not load them (cryptography's
Rust bindings alone are 6.5 MB).

- Setup stores a new key (encrypted) and shows it (otpauth URI, manual key, QR); a code from the app
  confirms it and turns two-factor sign-in on, and the 10 recovery codes are shown once.
- A code is accepted within one step either side of the server's clock, once: the last step used
  is kept and a code of that step or an earlier one is refused (no replay).
- A recovery code works once: only keyed hashes are kept and a used one is removed. Using one
  emails the user.
- Sign-in: the right password of a user with two-factor on gets 403 `two_factor_required` with a
  signed challenge (`challenge_make`) instead of a token; the challenge and a code give the token
  (`auth_login_two_factor`). The challenge is bound to the company, the user, the token version
  and the last sign-in (so it works once: a sign-in moves `last_login`), and expires after
  TWO_FACTOR_CHALLENGE_SECONDS.
- Every code attempt (sign-in, confirm, regenerate, disable) counts against the user's limit and,
  at sign-in, against the challenge's (TWO_FACTOR_RATE_*); wrong codes are audited.
- A company may require it (`Client.require_two_factor`): `two_factor_gate` is the one check,
  called by the Bearer authentication of the dashboard API.
"""
from __future__ import annotations

from contextlib import contextmanager

import base64
import hashlib
import hmac
import io
import re
import secrets
import time
import uuid

from django.conf import settings
from django.core import signing
from django.db import connection, transaction
from django.utils import timezone

from apps.accounts.models import User
from apps.accounts.passwords import CURRENT_PASSWORD_WRONG, password_confirms
from apps.accounts.selectors import USER_NOT_FOUND
from apps.accounts.tokens import token_issue
from apps.core import events, ratelimit
from apps.core.email import company_of_connection, email_queue
from apps.core.errors import Conflict, ErrorCode, NotFound, PermissionDenied, ValidationFailed
from tenants.models import Client

STEP_SECONDS = 30
DIGITS = 6
WINDOW = 1  # steps accepted either side of the server's clock
RECOVERY_CODE_COUNT = 10
_RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i
_CHALLENGE_SALT = "cms.accounts.two-factor-challenge"

CODE_REQUIRED = "Enter the 6-digit code from your authenticator app to finish signing in."
WRONG_CODE = "That code is not right. Check your authenticator app and try again, or use a recovery code."
WRONG_SETUP_CODE = ("That code is not right. Check that the clock of your phone is set automatically and "
                    "enter the code your authenticator app shows now.")
CHALLENGE_INVALID = "This sign-in attempt has expired. Please sign in again with your email and password."
NOT_ENABLED = "Two-factor sign-in is not turned on for this account."
ALREADY_ENABLED = "Two-factor sign-in is already on. Turn it off first to set up a new authenticator app."
NO_SETUP = "Start the setup again: no authenticator key is waiting for confirmation."
SETUP_REQUIRED = ("Your company requires two-factor sign-in. Set it up on your account page "
                  "before you continue.")
CANNOT_RESET = "Only administrators can reset another user's two-factor sign-in"
RESET_SELF = "Turn off your own two-factor sign-in from your account page (it asks for a code)."
TOO_MANY = "Too many code attempts. Please try again in {wait}."


# --- the key, encrypted at rest ---------------------------------------------------------------------
def _fernet():
    """Fernet keys derived from SECRET_KEY and each of SECRET_KEY_FALLBACKS: a rotation that keeps the
    old key among the fallbacks (as Django documents) still reads every stored key."""
    from cryptography.fernet import Fernet, MultiFernet

    keys = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    return MultiFernet([
        Fernet(base64.urlsafe_b64encode(hashlib.sha256(b"cms.accounts.two-factor-key:" + str(key).encode()).digest()))
        for key in keys])


def _seal(secret: str) -> str:
    return _fernet().encrypt(secret.encode()).decode()


def _open(sealed: str) -> str:
    """The key `sealed` holds; "" when there is none or it was encrypted under a key no longer configured."""
    if not sealed:
        return ""
    from cryptography.fernet import InvalidToken

    try:
        return _fernet().decrypt(sealed.encode()).decode()
    except InvalidToken:
        return ""


def _secret_of(user: User) -> str:
    return _open(user.two_factor_secret)


def _random_key() -> str:
    import pyotp

    return pyotp.random_base32()  # 160 bits, as RFC 4226 recommends


def _totp(secret: str):
    import pyotp

    return pyotp.TOTP(secret, digits=DIGITS, interval=STEP_SECONDS)


def _normalise(code: str) -> str:
    return re.sub(r"[\s-]", "", code or "").lower()


def _step_of_code(secret: str, code: str, *, after: int) -> int | None:
    """The time step (within WINDOW of now) whose code `code` is, if it is later than `after`."""
    if not secret or not re.fullmatch(r"\d{%d}" % DIGITS, code):
        return None
    totp = _totp(secret)
    now_step = totp.timecode(time.time())
    for step in range(now_step - WINDOW, now_step + WINDOW + 1):
        if step > after and hmac.compare_digest(totp.generate_otp(step), code):
            return step
    return None


# --- recovery codes ---------------------------------------------------------------------------------
def _recovery_hashes(code: str) -> list[str]:
    """The keyed hashes a recovery code may be stored under (current key first, then the fallbacks)."""
    keys = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    return [hmac.new(hashlib.sha256(b"cms.accounts.recovery-code:" + str(key).encode()).digest(),
                     code.encode(), hashlib.sha256).hexdigest() for key in keys]


def _recovery_codes_new() -> tuple[list[str], list[str]]:
    """10 new codes (shown once, as `xxxxx-xxxxx`: 50 random bits each) and their stored hashes."""
    codes = []
    for _ in range(RECOVERY_CODE_COUNT):
        raw = "".join(secrets.choice(_RECOVERY_ALPHABET) for _ in range(10))
        codes.append(f"{raw[:5]}-{raw[5:]}")
    return codes, [_recovery_hashes(_normalise(code))[0] for code in codes]


def _use_code(user: User, code: str) -> str | None:
    """On a locked row of a user with two-factor on: "totp" or "recovery" when `code` is accepted
    (the step is recorded, or the recovery code removed; saved), else None."""
    code = _normalise(code)
    step = _step_of_code(_secret_of(user), code, after=user.two_factor_last_step)
    if step is not None:
        user.two_factor_last_step = step
        user.save(update_fields=["two_factor_last_step", "updated_at"])
        return "totp"
    if len(code) == 10:
        candidates = set(_recovery_hashes(code))
        remaining = [stored for stored in user.two_factor_recovery_codes if stored not in candidates]
        if len(remaining) < len(user.two_factor_recovery_codes):
            user.two_factor_recovery_codes = remaining
            user.save(update_fields=["two_factor_recovery_codes", "updated_at"])
            return "recovery"
    return None


# --- throttling, locking, auditing ------------------------------------------------------------------
def _spend_attempt(user_pk, challenge_nonce: str | None = None) -> None:
    checks = [(ratelimit.parse_rate(settings.TWO_FACTOR_RATE_PER_USER),
               ("2fa-user", connection.schema_name, str(user_pk)))]
    if challenge_nonce:
        checks.append((ratelimit.parse_rate(settings.TWO_FACTOR_RATE_PER_CHALLENGE), ("2fa-challenge", challenge_nonce)))
    ratelimit.spend(checks, TOO_MANY)


def _locked(pk) -> User:
    user = User.objects.select_for_update().filter(pk=pk).first()
    if user is None:
        raise NotFound(USER_NOT_FOUND)
    return user


def _wrong_code(user: User, *, during: str, message: str = WRONG_CODE) -> ValidationFailed:
    """Audit the wrong code (outside the transaction that was rolled back) and the error to raise."""
    events.publish(events.SignInAttempted(user=user, outcome="two_factor_failed", summary=f"Wrong code ({during})"))
    return ValidationFailed(message, field="code", detail=ErrorCode.TWO_FACTOR_INVALID)


def _recovery_used_email(user: User) -> None:
    company_name, base_url = company_of_connection()
    email_queue(kind="two_factor_recovery_used", to=user.email, company_name=company_name, base_url=base_url,
                context={"username": user.username, "remaining": len(user.two_factor_recovery_codes),
                         "url": f"{base_url}/dashboard/account#two-factor", "when": timezone.now()})


# --- the account page -------------------------------------------------------------------------------
# --- the same authenticator codes for accounts outside a company (lifecycle.operator) --------------------
def secret_new() -> str:
    return _random_key()


def secret_seal(secret: str) -> str:
    """The key encrypted at rest, as a user's is."""
    return _seal(secret)


def secret_open(sealed: str) -> str:
    return _open(sealed)


def code_step(secret: str, code: str, *, after: int) -> int | None:
    """The time step of an authenticator code typed by a person (spaces and dashes allowed), if it
    is within the window of now and later than `after` (a code works once)."""
    return _step_of_code(secret, _normalise(code), after=after)


def provisioning_uri(secret: str, *, name: str, issuer: str) -> str:
    return _totp(secret).provisioning_uri(name=name, issuer_name=issuer)


def otpauth_uri(*, secret: str, user: User, company_name: str) -> str:
    issuer = f"{settings.TWO_FACTOR_ISSUER} ({company_name})" if company_name else settings.TWO_FACTOR_ISSUER
    return _totp(secret).provisioning_uri(name=user.email, issuer_name=issuer)


def qr_svg(text: str) -> str:
    import segno  # 0.8 MB, for the set-up screen only: not loaded by every web worker

    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="svg", scale=4, border=2, xmldecl=False, svgns=True,
                                     svgclass="qr-code", lineclass=None, title="QR code of your authenticator key")
    return buffer.getvalue().decode()


@transaction.atomic
def two_factor_setup(*, user: User) -> dict:
    """A new key for the user's authenticator app (replacing one not confirmed yet); two-factor sign-in
    is not on until `two_factor_confirm`. 409 when it is on already."""
    locked = _locked(user.pk)
    if locked.two_factor_enabled:
        raise Conflict(ALREADY_ENABLED)
    secret = _random_key()
    locked.two_factor_secret = _seal(secret)
    locked.two_factor_last_step = 0
    locked.save(update_fields=["two_factor_secret", "two_factor_last_step", "updated_at"])
    company_name, _ = company_of_connection()
    uri = otpauth_uri(secret=secret, user=locked, company_name=company_name)
    return {"secret": secret, "otpauthUri": uri, "qrSvg": qr_svg(uri)}


def two_factor_confirm(*, user: User, code: str) -> list[str]:
    """A code of the key set up turns two-factor sign-in on; returns the 10 recovery codes (shown once).
    Two confirmations at once: one wins, the other gets 409."""
    _spend_attempt(user.pk)
    with transaction.atomic():
        locked = _locked(user.pk)
        if locked.two_factor_enabled:
            raise Conflict(ALREADY_ENABLED)
        secret = _secret_of(locked)
        if not secret:
            raise ValidationFailed(NO_SETUP, field="code")
        step = _step_of_code(secret, _normalise(code), after=locked.two_factor_last_step)
        if step is not None:
            codes, hashes = _recovery_codes_new()
            locked.two_factor_enabled_at = timezone.now()
            locked.two_factor_last_step, locked.two_factor_recovery_codes = step, hashes
            locked.save(update_fields=["two_factor_enabled_at", "two_factor_last_step", "two_factor_recovery_codes",
                                       "updated_at"])
            events.publish(events.UserChanged(user=locked, change="two_factor_enabled", actor=locked,
                                              summary=locked.username))
            return codes
    raise _wrong_code(locked, during="setup", message=WRONG_SETUP_CODE)


@contextmanager
def _code_used(user: User, code: str):
    """What a change that needs a current code starts with: the attempt counted, then, in one
    transaction, the user's row locked (409 when two-factor sign-in is off) and `code` checked and
    used: yields (the row, "totp" / "recovery" / None). A wrong code is raised by the caller after
    the block, once the transaction is over."""
    _spend_attempt(user.pk)
    with transaction.atomic():
        locked = _locked(user.pk)
        if not locked.two_factor_enabled:
            raise Conflict(NOT_ENABLED)
        yield locked, _use_code(locked, code)


def two_factor_recovery_regenerate(*, user: User, code: str) -> list[str]:
    """New recovery codes (the old ones stop working), for a current code."""
    with _code_used(user, code) as (locked, used):
        if used:
            codes, hashes = _recovery_codes_new()
            locked.two_factor_recovery_codes = hashes
            locked.save(update_fields=["two_factor_recovery_codes", "updated_at"])
            events.publish(events.UserChanged(user=locked, change="recovery_codes_regenerated", actor=locked,
                                              summary=locked.username))
            return codes
    raise _wrong_code(locked, during="new recovery codes")


def two_factor_disable(*, user: User, code: str, password: str) -> None:
    """Turn it off, with the password (throttled as at sign-in) and a current or recovery code."""
    if not password:
        raise ValidationFailed("Password is required", field="password")
    if not password_confirms(user, password):
        raise ValidationFailed(CURRENT_PASSWORD_WRONG, field="password")
    with _code_used(user, code) as (locked, used):
        if used:
            _turn_off(locked)
            events.publish(events.UserChanged(
                user=locked, change="two_factor_disabled", actor=locked,
                summary=f"{locked.username} ({'recovery code' if used == 'recovery' else 'code'})"))
            return
    raise _wrong_code(locked, during="turning off")


def _turn_off(user: User) -> None:
    user.two_factor_secret, user.two_factor_enabled_at = "", None
    user.two_factor_recovery_codes, user.two_factor_last_step = [], 0
    user.save(update_fields=["two_factor_secret", "two_factor_enabled_at", "two_factor_recovery_codes",
                             "two_factor_last_step", "updated_at"])


@transaction.atomic
def two_factor_admin_reset(*, actor: User, user: User) -> User:
    """An admin turns off another user's two-factor sign-in (a lost phone); audited, and the user is told
    by email. 409 when it is not on."""
    if actor.pk == user.pk:
        raise PermissionDenied(RESET_SELF)
    locked = _locked(user.pk)
    if not locked.two_factor_enabled:
        raise Conflict(NOT_ENABLED)
    _turn_off(locked)
    events.publish(events.UserChanged(user=locked, change="two_factor_reset", actor=actor, summary=locked.username))
    company_name, base_url = company_of_connection()
    email_queue(kind="two_factor_reset", to=locked.email, company_name=company_name, base_url=base_url,
                context={"username": locked.username, "admin": actor.username,
                         "url": f"{base_url}/dashboard/account#two-factor"})
    return locked


def two_factor_status(user: User) -> dict:
    return {"enabled": user.two_factor_enabled, "enabledAt": user.two_factor_enabled_at,
            "recoveryCodesLeft": len(user.two_factor_recovery_codes) if user.two_factor_enabled else 0,
            "required": two_factor_required_here()}


# --- the sign-in's second step ----------------------------------------------------------------------
def _last_login_mark(user: User) -> str:
    return user.last_login.isoformat() if user.last_login else ""


def challenge_make(user: User) -> tuple[str, int]:
    """The signed challenge of a sign-in waiting for its code, and its lifetime in seconds."""
    payload = {"s": connection.schema_name, "u": str(user.pk), "tv": user.token_version,
               "l": _last_login_mark(user), "n": uuid.uuid4().hex}
    return signing.dumps(payload, salt=_CHALLENGE_SALT, compress=True), settings.TWO_FACTOR_CHALLENGE_SECONDS


def _challenge_read(token: str) -> dict:
    try:
        data = signing.loads(token or "", salt=_CHALLENGE_SALT, max_age=settings.TWO_FACTOR_CHALLENGE_SECONDS)
    except signing.BadSignature as exc:  # SignatureExpired is one
        raise _challenge_invalid() from exc
    if not isinstance(data, dict) or data.get("s") != connection.schema_name or not data.get("n"):
        raise _challenge_invalid()  # another company's challenge
    try:
        data["u"] = uuid.UUID(str(data.get("u")))
    except ValueError as exc:
        raise _challenge_invalid() from exc
    return data


def _challenge_invalid() -> ValidationFailed:
    return ValidationFailed(CHALLENGE_INVALID, field="challengeToken", detail=ErrorCode.TWO_FACTOR_CHALLENGE_INVALID)


def auth_login_two_factor(*, challenge_token: str, code: str) -> tuple[str, int, User]:
    """The second step of a sign-in: the challenge and a code (6 digits, or a recovery code) give the
    session token. The challenge works once (a sign-in moves `last_login`, which it is bound to)."""
    data = _challenge_read(challenge_token)
    _spend_attempt(data["u"], data["n"])
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=data["u"]).first()
        if (user is None or user.status != User.Status.ACTIVE or not user.two_factor_enabled
                or user.token_version != data.get("tv") or _last_login_mark(user) != data.get("l")):
            raise _challenge_invalid()
        used = _use_code(user, code)
        if used:
            user.last_login = timezone.now()
            user.save(update_fields=["last_login"])
            events.publish(events.SignInAttempted(
                user=user, outcome="login",
                summary=f"{user.username} (two-factor{', recovery code' if used == 'recovery' else ''})"))
            if used == "recovery":
                _recovery_used_email(user)
    if not used:
        raise _wrong_code(user, during="sign-in")
    token, expires_in = token_issue(user=user, schema_name=connection.schema_name)
    return token, expires_in, user


# --- the company's requirement ----------------------------------------------------------------------
def two_factor_required_here() -> bool:
    tenant = getattr(connection, "tenant", None)
    return bool(getattr(tenant, "require_two_factor", False))


def _allowed_during_setup(request, user: User) -> bool:
    """What a user the company requires two-factor sign-in of, who has not set it up, may still call:
    who they are, the setup itself, and the rest of their account page (their own record, the
    verification banner)."""
    path = request.path_info.rstrip("/")
    method = request.method
    if method == "GET" and path in ("/api/auth/me", "/api/auth/2fa", "/api/client/verification"):
        return True
    if method == "POST" and path in ("/api/auth/2fa/setup", "/api/auth/2fa/confirm"):
        return True
    return method in ("GET", "PUT") and path == f"/api/users/{user.pk}"


def two_factor_gate(request, user: User) -> None:
    """THE check of "require two-factor sign-in" (Client.require_two_factor), made by the dashboard API's
    Bearer authentication on every call: 403 `two_factor_setup_required` until the user has set it up."""
    tenant = getattr(request, "tenant", None)
    if not getattr(tenant, "require_two_factor", False) or user.two_factor_enabled:
        return
    if not _allowed_during_setup(request, user):
        raise PermissionDenied(SETUP_REQUIRED, detail=ErrorCode.TWO_FACTOR_SETUP_REQUIRED)


def two_factor_policy_set(*, client, required: bool, actor: User):
    """An admin requires two-factor sign-in of everyone in the company (or stops requiring it)."""
    with transaction.atomic():
        locked = Client.objects.select_for_update().get(pk=client.pk)
        if locked.require_two_factor != required:
            Client.objects.filter(pk=client.pk).update(require_two_factor=required)
            events.publish(events.CompanyChanged(
                client=client, change="settings", actor=actor,
                summary=f"two-factor sign-in {'required' if required else 'optional'}", public=False))
    client.require_two_factor = required
    return client


def users_without_two_factor() -> int:
    return User.objects.filter(status=User.Status.ACTIVE, two_factor_enabled_at__isnull=True).count()

