"""Readers joining and signing in from the company's website (docs/members.md#from-your-website).

The public calls (`subscribe_request`, `signin_request`) answer the same way whether or not the
address is known, and do the same work either way: the address is checked for its shape, the
throttles are spent (per address, per client address, per company), and one outbox row is written;
what differs (a member found or not, an address disabled) is decided by the task, after the reply.
A filled honeypot field gets the same reply and nothing else.

- Sign-up is double opt-in: the task emails a signed link (apps.members.tokens: confirm) to
  `/members/confirm` on the company's host; opening it makes the member (or adds the newsletters to
  an existing one), with the time and address of the confirmation as consent.
- Sign-in: the task emails a member a signed link to the website (`redirect`, else the company's
  website address, else its host) with `?token=`; the website exchanges it once
  (`session_exchange`) for a short-lived member token.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit, urlunsplit

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apps.core import events, outbox, ratelimit
from apps.core.email import email_queue
from apps.core.errors import ErrorCode, NotFound, PermissionDenied, ValidationFailed
from apps.members import tokens
from apps.members.events import MemberChanged
from apps.members.models import Member
from apps.members.services import member_create
from apps.newsletters.models import Newsletter
from apps.newsletters.selectors import newsletters_active
from apps.newsletters.services import newsletters_default
from apps.plans.rules import PlanExpired, PlanLimitReached
from apps.site.selectors import site_view
from tenants.addresses import tenant_base_url

logger = logging.getLogger(__name__)

SUBSCRIBE_TASK = "members.subscribe_send"
SIGNIN_TASK = "members.signin_send"
SUBSCRIBE_REPLY = "Check your inbox: we sent a link to confirm your subscription."
SIGNIN_REPLY = "Check your inbox: if this address is subscribed, we sent it a link to sign in."
THROTTLED = "Too many requests. Please try again in {wait}."
ORIGIN_REFUSED = ("This form is not on the company's website. Set the website's address in Settings -> Site "
                  "to accept sign-ups from it.")
REDIRECT_REFUSED = "The redirect address must be on the company's website"
LINK_INVALID = "This link has expired, was used already or is not valid. Ask for a new one."


# --- where requests may come from ---------------------------------------------------------------------
def _origin(url: str) -> str | None:
    parts = urlsplit(url or "")
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    default = {"http": 80, "https": 443}[parts.scheme]
    port = f":{parts.port}" if parts.port and parts.port != default else ""
    return f"{parts.scheme}://{parts.hostname.lower()}{port}"


def allowed_origins(client) -> set[str]:
    """The origins a members' form may be posted from: the company's website and its own host."""
    return {origin for origin in (_origin(client.website_url), _origin(tenant_base_url(client.subdomain))) if origin}


def origin_check(client, origin: str | None) -> None:
    """A browser's request (it sends Origin) from a page that is not the company's website is
    refused (403 origin_not_allowed); a server's request (no Origin) is the key's to vouch for."""
    if origin is None:
        return
    if _origin(origin) not in allowed_origins(client):
        raise PermissionDenied(ORIGIN_REFUSED, detail=ErrorCode.ORIGIN_NOT_ALLOWED)


def redirect_check(client, url: str) -> str:
    """A sign-in link's target: an address on an allowed origin ("" when none was given)."""
    if not url:
        return ""
    if _origin(url) not in allowed_origins(client):
        raise ValidationFailed(REDIRECT_REFUSED, field="redirect")
    return url


def _throttle(kind: str, *, schema: str, email: str, ip: str) -> None:
    rates = {"email": getattr(settings, f"MEMBERS_{kind}_RATE_PER_EMAIL"),
             "ip": getattr(settings, f"MEMBERS_{kind}_RATE_PER_IP"),
             "company": getattr(settings, f"MEMBERS_{kind}_RATE_PER_COMPANY")}
    name = f"members-{kind.lower()}"
    ratelimit.spend([(ratelimit.parse_rate(rates["email"]), (name, schema, "email", email)),
                     (ratelimit.parse_rate(rates["ip"]), (name, schema, "ip", ip)),
                     (ratelimit.parse_rate(rates["company"]), (name, schema, "company"))], THROTTLED)


# --- sign-up --------------------------------------------------------------------------------------------
def subscribe_request(*, client, schema: str, email: str, name: str, newsletter_ids: list[str] | None,
                      honeypot: str, ip: str) -> None:
    """POST /api/v1/members/subscribe: the same reply for every address (the caller's)."""
    ids = [str(n.pk) for n in newsletters_active(newsletter_ids)] if newsletter_ids else []
    _throttle("SUBSCRIBE", schema=schema, email=email, ip=ip)
    if honeypot:
        logger.info("members: a sign-up with its honeypot filled was dropped")
        return
    outbox.outbox_add(task=SUBSCRIBE_TASK, kwargs={"email": email, "name": name, "newsletter_ids": ids})


def _company_words(client) -> tuple[str, str]:
    return site_view(client).title, tenant_base_url(client.subdomain)


def _newsletter_names(ids) -> list[str]:
    chosen = (list(Newsletter.objects.filter(pk__in=ids, status=Newsletter.Status.ACTIVE)) if ids
              else newsletters_default())
    return [newsletter.name for newsletter in chosen]


def subscribe_send(*, client, email: str, name: str, newsletter_ids: list[str]) -> bool:
    """The task: email the confirmation link (not to an address whose emails are disabled)."""
    if Member.objects.filter(email=email, email_disabled=True).exists():
        return False
    title, base_url = _company_words(client)
    token = tokens.confirm_token(email=email, name=name, newsletter_ids=newsletter_ids)
    hours = max(1, settings.MEMBERS_CONFIRM_LINK_SECONDS // 3600)
    email_queue(kind="member_confirm", to=email, company_name=title, base_url=base_url, context={
        "url": f"{base_url}/members/confirm?{urlencode({'token': token})}", "newsletters": _newsletter_names(
            newsletter_ids), "valid_for": f"{hours} hour{'s' if hours != 1 else ''}"})
    return True


@dataclass(frozen=True)
class Confirmed:
    member: Member | None
    already: bool = False  # the link was used before: nothing changed
    full: bool = False  # the plan cannot take another member


@transaction.atomic
def subscribe_confirm(*, token: str, ip: str | None) -> Confirmed:
    """Open a confirmation link: the member is made (source website, consent now from `ip`) or, when
    the address is a member's already, gets the newsletters. tokens.LinkInvalid for a bad link."""
    sign_up = tokens.confirm_read(token)
    try:
        tokens.confirm_use(sign_up)
    except tokens.LinkUsed:
        return Confirmed(Member.objects.filter(email=sign_up.email).first(), already=True)
    chosen = (list(Newsletter.objects.filter(pk__in=list(sign_up.newsletter_ids), status=Newsletter.Status.ACTIVE))
              if sign_up.newsletter_ids else newsletters_default())
    member = Member.objects.select_for_update().filter(email=sign_up.email).first()
    now = timezone.now()
    if member is None:
        try:
            with transaction.atomic():
                member = member_create(email=sign_up.email, name=sign_up.name, newsletter_ids=[str(n.pk) for n in chosen],
                                       source=Member.Source.WEBSITE, consent_at=now, consent_ip=ip)
        except (PlanLimitReached, PlanExpired):
            transaction.set_rollback(True)
            return Confirmed(None, full=True)
        return Confirmed(member)
    member.newsletters.add(*chosen)
    member.consent_at, member.consent_ip = now, ip
    if not member.name and sign_up.name:
        member.name = sign_up.name
    member.save(update_fields=["consent_at", "consent_ip", "name", "updated_at"])
    events.publish(MemberChanged(member_id=member.pk, email=member.email, change="subscribed",
                                 summary=", ".join(n.name for n in chosen)))
    return Confirmed(member)


# --- sign-in --------------------------------------------------------------------------------------------
def signin_request(*, client, schema: str, email: str, redirect: str, ip: str) -> None:
    """POST /api/v1/members/signin: the same reply for every address (the caller's)."""
    _throttle("SIGNIN", schema=schema, email=email, ip=ip)
    outbox.outbox_add(task=SIGNIN_TASK, kwargs={"email": email, "redirect": redirect})


def _with_token(url: str, token: str) -> str:
    parts = urlsplit(url)
    query = "&".join(part for part in (parts.query, urlencode({"token": token})) if part)
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", query, ""))


def signin_send(*, client, email: str, redirect: str) -> bool:
    """The task: email a member the sign-in link (nobody else)."""
    member = Member.objects.filter(email=email, email_disabled=False).first()
    if member is None:
        return False
    title, base_url = _company_words(client)
    target = redirect if redirect and _origin(redirect) in allowed_origins(client) else (client.website_url or base_url)
    minutes = max(1, settings.MEMBERS_SIGNIN_LINK_SECONDS // 60)
    email_queue(kind="member_signin", to=email, company_name=title, base_url=base_url, context={
        "url": _with_token(target, tokens.signin_token(member)), "valid_for": f"{minutes} minutes"})
    return True


def session_exchange(*, token: str, schema: str, ip: str) -> tuple[str, object, Member]:
    """POST /api/v1/members/session: a sign-in link's token, once, for a member token. 400
    link_invalid for a link forged, expired, used, of another company or of a member changed since."""
    ratelimit.spend([(ratelimit.parse_rate(settings.MEMBERS_SESSION_RATE_PER_IP), ("members-session", schema, ip))],
                    THROTTLED)
    try:
        member = tokens.signin_use(token)
    except (tokens.LinkInvalid, tokens.LinkUsed) as exc:
        raise ValidationFailed(LINK_INVALID, field="token", detail=ErrorCode.LINK_INVALID) from exc
    session, expires = tokens.session_token(member)
    return session, expires, member


# --- preferences -------------------------------------------------------------------------------------------
def preferences_member(token: str) -> tuple[Member, Newsletter | None]:
    """The member (and newsletter) a preferences or unsubscribe link names. tokens.LinkInvalid for
    a forged link or another company's; NotFound for a member deleted since."""
    member_id, newsletter_id = tokens.preferences_read(token)
    member = Member.objects.prefetch_related("newsletters").filter(pk=member_id).first()
    if member is None:
        raise NotFound("Member not found")
    newsletter = Newsletter.objects.filter(pk=newsletter_id).first() if newsletter_id else None
    return member, newsletter


@transaction.atomic
def preferences_save(*, member: Member, newsletter_ids: list[str]) -> None:
    """The member's newsletters become these (active ones; archived ones stay as they were)."""
    wanted = set(Newsletter.objects.filter(pk__in=newsletter_ids, status=Newsletter.Status.ACTIVE))
    current = set(member.newsletters.filter(status=Newsletter.Status.ACTIVE))
    if current - wanted:
        member.newsletters.remove(*(current - wanted))
    if wanted - current:
        member.newsletters.add(*(wanted - current))
    if current != wanted:
        Member.objects.filter(pk=member.pk).update(updated_at=timezone.now())
        events.publish(MemberChanged(member_id=member.pk, email=member.email, change="updated",
                                     summary="newsletter preferences"))


@transaction.atomic
def unsubscribe(*, member: Member, newsletter: Newsletter | None = None) -> None:
    """Off one newsletter (a one-click unsubscribe from its email), or off all of them."""
    if newsletter is not None:
        member.newsletters.remove(newsletter)
    else:
        member.newsletters.clear()
    Member.objects.filter(pk=member.pk).update(updated_at=timezone.now())
    events.publish(MemberChanged(member_id=member.pk, email=member.email, change="unsubscribed",
                                 summary=newsletter.name if newsletter else "all newsletters"))
