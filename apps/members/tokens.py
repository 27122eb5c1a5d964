"""The signed tokens of members (docs/members.md#links-and-tokens). Each is signed with SECRET_KEY
(django.core.signing, a salt of its own, so one kind is never taken for another) and names the
company's schema: a token of one company is refused on every other company's host.

- confirm: the double opt-in link of a sign-up (the address, name and newsletters asked for, a
  nonce); valid MEMBERS_CONFIRM_LINK_SECONDS, used once.
- signin: the emailed sign-in link of a member (its id, a nonce); valid MEMBERS_SIGNIN_LINK_SECONDS,
  used once; exchanged for a session token.
- session: what a website sends (X-Member-Token) to read members-only posts: the member's id and
  its session_version, valid MEMBERS_SESSION_SECONDS (a changed address or a deletion ends it).
- preferences: the member's link to their preferences and to unsubscribe (in every newsletter
  email; with a newsletter for its one-click unsubscribe); no expiry: an email stays readable.
- tracking: the member in the open pixel and the click links of a send's email when the company
  counts them (apps.newsletters.tracking); signed for the company and the send (both are in its
  salt), no expiry, always TRACKING_TOKEN_LENGTH characters (the email is rendered with a marker of
  that length in its place: apps.newsletters.rendering.Markers).
"""
from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from apps.core.selectors import as_uuid
from apps.members.models import Member, UsedLink

CONFIRM, SIGNIN, SESSION, PREFERENCES = "members.confirm", "members.signin", "members.session", "members.preferences"
TRACKING = "members.tracking"
TRACKING_TOKEN_LENGTH = 76  # the member id's 32 hex digits, ":", the SHA-256 signature's 43 base64 characters


class LinkInvalid(Exception):
    pass


class LinkUsed(Exception):
    pass


def _dumps(payload: dict, salt: str) -> str:
    return signing.dumps({"s": connection.schema_name, **payload}, salt=salt, compress=True)


def _loads(token: str, salt: str, max_age: int | None) -> dict:
    if not isinstance(token, str) or not token or len(token) > 4000:
        raise LinkInvalid()
    try:
        value = signing.loads(token, salt=salt, max_age=max_age)
    except signing.BadSignature as exc:  # SignatureExpired is one
        raise LinkInvalid() from exc
    if not isinstance(value, dict) or value.get("s") != connection.schema_name:
        raise LinkInvalid()  # another company's
    return value


def _use_once(nonce, max_age: int) -> None:
    """Record the nonce of a one-time link; LinkUsed when it was used before."""
    if not isinstance(nonce, str) or not 16 <= len(nonce) <= 64:
        raise LinkInvalid()
    try:
        with transaction.atomic():
            UsedLink.objects.create(nonce=nonce, expires_at=timezone.now() + timedelta(seconds=max_age))
    except IntegrityError as exc:
        raise LinkUsed() from exc


# --- confirm (double opt-in) -------------------------------------------------------------------------
@dataclass(frozen=True)
class SignUp:
    email: str
    name: str
    newsletter_ids: tuple[str, ...]
    nonce: str


def confirm_token(*, email: str, name: str, newsletter_ids: list[str]) -> str:
    return _dumps({"e": email, "n": name, "l": list(newsletter_ids), "k": secrets.token_urlsafe(24)}, CONFIRM)


def confirm_read(token: str) -> SignUp:
    value = _loads(token, CONFIRM, settings.MEMBERS_CONFIRM_LINK_SECONDS)
    try:
        return SignUp(email=str(value["e"]), name=str(value["n"]), newsletter_ids=tuple(map(str, value["l"])),
                      nonce=str(value["k"]))
    except (KeyError, TypeError) as exc:
        raise LinkInvalid() from exc


def confirm_use(sign_up: SignUp) -> None:
    _use_once(sign_up.nonce, settings.MEMBERS_CONFIRM_LINK_SECONDS)


# --- sign-in -------------------------------------------------------------------------------------------
def signin_token(member: Member) -> str:
    return _dumps({"m": str(member.pk), "v": member.session_version, "k": secrets.token_urlsafe(24)}, SIGNIN)


def signin_use(token: str) -> Member:
    """The member a sign-in link names, its link now used. LinkInvalid for a link forged, expired,
    of another company, of a member gone or changed since; LinkUsed for a second use."""
    value = _loads(token, SIGNIN, settings.MEMBERS_SIGNIN_LINK_SECONDS)
    member = Member.objects.filter(pk=value.get("m") if _is_uuid(value.get("m")) else None).first()
    if member is None or member.session_version != value.get("v"):
        raise LinkInvalid()
    _use_once(value.get("k"), settings.MEMBERS_SIGNIN_LINK_SECONDS)
    return member


# --- session -------------------------------------------------------------------------------------------
def session_token(member: Member) -> tuple[str, datetime]:
    expires = timezone.now() + timedelta(seconds=settings.MEMBERS_SESSION_SECONDS)
    return _dumps({"m": str(member.pk), "v": member.session_version}, SESSION), expires


def session_member(token: str | None) -> Member | None:
    """The member a session token names in this company, or None (forged, expired, another
    company's, a member deleted or whose address changed since)."""
    if not token:
        return None
    try:
        value = _loads(token, SESSION, settings.MEMBERS_SESSION_SECONDS)
    except LinkInvalid:
        return None
    if not _is_uuid(value.get("m")):
        return None
    member = Member.objects.filter(pk=value["m"]).first()
    if member is None or member.session_version != value.get("v"):
        return None
    return member


# --- preferences and unsubscribe -----------------------------------------------------------------------------
def preferences_token(member_id, newsletter_id=None) -> str:
    payload = {"m": str(member_id)}
    if newsletter_id is not None:
        payload["n"] = str(newsletter_id)
    return _dumps(payload, PREFERENCES)


def preferences_read(token: str) -> tuple[str, str | None]:
    """(member id, newsletter id or None) of a preferences link; LinkInvalid when forged or of
    another company."""
    value = _loads(token, PREFERENCES, None)
    member_id, newsletter_id = value.get("m"), value.get("n")
    if not _is_uuid(member_id) or (newsletter_id is not None and not _is_uuid(newsletter_id)):
        raise LinkInvalid()
    return member_id, newsletter_id


# --- opens and clicks of a send's email -------------------------------------------------------------------------
def _tracking_signer(schema: str, send_id) -> signing.Signer:
    return signing.Signer(salt=f"{TRACKING}:{schema}:{uuid.UUID(str(send_id)).hex}", algorithm="sha256")


def tracking_token(*, schema: str, send_id, member_id) -> str:
    """The member's token in the email of this send of this company (TRACKING_TOKEN_LENGTH characters)."""
    return _tracking_signer(schema, send_id).sign(uuid.UUID(str(member_id)).hex)


def tracking_member(token, send_id) -> str | None:
    """The member id a tracking token names for this send in this company (the connection's schema),
    or None: forged, of another send or of another company."""
    if not isinstance(token, str) or len(token) != TRACKING_TOKEN_LENGTH:
        return None
    try:
        value = _tracking_signer(connection.schema_name, send_id).unsign(token)
    except (signing.BadSignature, ValueError):
        return None
    return str(as_uuid(value)) if as_uuid(value) is not None else None


def _is_uuid(value) -> bool:
    return isinstance(value, str) and as_uuid(value) is not None
