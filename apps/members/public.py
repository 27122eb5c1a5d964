"""Members on the public API (/api/v1/members, the content key in x-api-key; docs/members.md#from-your-website).

POST members/subscribe   {email, name?, newsletters?, honeypot?}: 202, the same reply for every address;
                         a link to confirm is emailed (double opt-in)
POST members/signin      {email, redirect?}: 202, the same reply for every address; a member gets a
                         sign-in link to the website
POST members/session     {token}: the sign-in link's token, once, for a member token (X-Member-Token)

A request from a browser (it sends Origin) is accepted from the company's website and its own host
only (403 origin_not_allowed); CORS is answered as for the rest of the public API. Throttled per
address, per client address and per company (429 with Retry-After).
"""
from __future__ import annotations

from datetime import datetime
from typing import Annotated

from django.db import connection
from ninja import Router
from pydantic import BeforeValidator, Field

from apps.core.ratelimit import client_ip
from apps.core.schemas import InSchema, OutSchema, SuccessOut
from apps.core.validation import Email, clean_min_length, text
from apps.members.models import NAME_MAX
from apps.members.fields import Ids
from apps.members.selectors import member_newsletter_ids
from apps.public_api.auth import ApiKeyAuth

router = Router(tags=["members"], auth=ApiKeyAuth(throttled=False))
# apps.members.signup (with the members' and newsletters' services and the outgoing email it
# uses) is imported by a worker's first member request, not by every content worker as it starts:
# most of a content pool's workers serve reads only (apps/core/tests/test_web_imports.py).


def _name(value) -> str:
    return clean_min_length(value, 0, f"Name must be at most {NAME_MAX} characters", maximum=NAME_MAX)


def _short(value) -> str:
    return text(value, "Must be text")[:200]


def _url(value) -> str:
    return text(value, "Redirect must be an address").strip()[:2000]


class SubscribeIn(InSchema):
    email: Email
    name: Annotated[str, BeforeValidator(_name)] = ""
    newsletters: Ids | None = Field(None, description="Newsletter ids; left out: the default newsletters")
    honeypot: Annotated[str, BeforeValidator(_short)] = Field(
        "", description="Leave empty: a form renders it hidden, so only robots fill it in")


class SigninIn(InSchema):
    email: Email
    redirect: Annotated[str, BeforeValidator(_url)] = Field(
        "", description="Where the emailed link goes (an address on the company's website); default: the website")


class SessionIn(InSchema):
    token: Annotated[str, BeforeValidator(lambda value: text(value, "Token is required").strip()[:4000])] = ""


class AcceptedOut(SuccessOut):
    message: str


class SessionMemberOut(OutSchema):
    id: str
    email: str
    name: str
    status: str  # free, comped
    newsletters: list[str]  # ids


class SessionOut(SuccessOut):
    token: str  # send it as X-Member-Token to read members-only posts
    expiresAt: datetime
    member: SessionMemberOut


@router.post("/subscribe", response={202: AcceptedOut})
def subscribe(request, payload: SubscribeIn):
    from apps.members import signup  # on first use (see above the router)

    signup.origin_check(request.tenant, request.headers.get("Origin"))
    signup.subscribe_request(client=request.tenant, schema=connection.schema_name, email=payload.email,
                             name=payload.name, newsletter_ids=payload.newsletters, honeypot=payload.honeypot,
                             ip=client_ip(request))
    return 202, AcceptedOut(message=signup.SUBSCRIBE_REPLY)


@router.post("/signin", response={202: AcceptedOut})
def signin(request, payload: SigninIn):
    from apps.members import signup  # on first use (see above the router)

    signup.origin_check(request.tenant, request.headers.get("Origin"))
    redirect = signup.redirect_check(request.tenant, payload.redirect)
    signup.signin_request(client=request.tenant, schema=connection.schema_name, email=payload.email,
                          redirect=redirect, ip=client_ip(request))
    return 202, AcceptedOut(message=signup.SIGNIN_REPLY)


@router.post("/session", response=SessionOut)
def session(request, payload: SessionIn):
    from apps.members import signup  # on first use (see above the router)

    signup.origin_check(request.tenant, request.headers.get("Origin"))
    token, expires, member = signup.session_exchange(token=payload.token, schema=connection.schema_name,
                                                     ip=client_ip(request))
    return SessionOut(token=token, expiresAt=expires, member=SessionMemberOut(
        id=str(member.id), email=member.email, name=member.name, status=member.status,
        newsletters=member_newsletter_ids(member)))


ROUTES = [("/members", router)]
