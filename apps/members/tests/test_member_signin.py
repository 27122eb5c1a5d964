"""Members signing in to the company's website: the emailed link (once, short-lived, to the
website), its exchange for a member token, and every link or token that must not work."""
from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.core.testing import Api
from apps.members import signup, tokens
from apps.members.services import member_update
from apps.members.tests import factories
from apps.members.tests.helpers import emails, link_in, run_outbox, token_of
from tenants.models import Client

WEBSITE = "https://blog.example.com"


@pytest.fixture
def site(tenant):
    Client.objects.filter(pk=tenant.pk).update(website_url=WEBSITE)
    tenant.refresh_from_db()
    return tenant


def public(tenant):
    return Api(tenant, headers={"x-api-key": tenant.api_key, "Origin": WEBSITE})


def signin_link(tenant, email: str, redirect: str = "") -> str:
    body = {"email": email, **({"redirect": redirect} if redirect else {})}
    assert public(tenant).post("/api/v1/members/signin", body).status_code == 202
    run_outbox(signup.SIGNIN_TASK)
    return link_in(emails("member_signin", email.lower())[-1])


def exchange(tenant, token: str):
    return public(tenant).post("/api/v1/members/session", {"token": token})


def test_a_member_signs_in_by_the_emailed_link_once(site):
    weekly = factories.newsletter(site, "Weekly")
    member = factories.member(site, email="ada@example.com", name="Ada", newsletters=[weekly])
    link = signin_link(site, "ADA@example.com", redirect=f"{WEBSITE}/account?from=nav")
    assert link.startswith(f"{WEBSITE}/account?from=nav&token=")
    reply = exchange(site, token_of(link))
    assert reply.status_code == 200, reply.content
    body = reply.json()
    assert body["member"] == {"id": str(member.id), "email": "ada@example.com", "name": "Ada", "status": "free",
                              "newsletters": [str(weekly.id)]}
    with schema_context(site.schema_name):
        assert tokens.session_member(body["token"]).pk == member.pk
    expires = timezone.datetime.fromisoformat(body["expiresAt"].replace("Z", "+00:00"))
    assert timedelta(hours=23) < expires - timezone.now() <= timedelta(hours=24)
    again = exchange(site, token_of(link))
    assert again.status_code == 400 and again.json()["code"] == "link_invalid"


def test_the_link_goes_to_the_website_by_default(site):
    factories.member(site, email="ada@example.com")
    assert signin_link(site, "ada@example.com").startswith(f"{WEBSITE}/?token=")


def test_unknown_and_disabled_addresses_get_the_same_reply_and_no_email(site):
    factories.member(site, email="bounced@example.com", email_disabled=True)
    for email in ("nobody@example.com", "bounced@example.com"):
        reply = public(site).post("/api/v1/members/signin", {"email": email})
        assert reply.status_code == 202 and reply.json()["message"] == signup.SIGNIN_REPLY
    run_outbox(signup.SIGNIN_TASK)
    assert emails("member_signin") == []


def test_a_redirect_off_the_website_is_refused(site):
    reply = public(site).post("/api/v1/members/signin", {"email": "a@example.com", "redirect": "https://evil.example/"})
    assert reply.status_code == 400 and reply.json()["errors"][0]["field"] == "redirect"
    for target in ("javascript:alert(1)", "//evil.example", f"{WEBSITE}.evil.example/x"):
        assert public(site).post("/api/v1/members/signin", {"email": "a@example.com", "redirect": target}).status_code == 400


def test_an_expired_link_is_refused(site, settings):
    factories.member(site, email="ada@example.com")
    link = signin_link(site, "ada@example.com")
    with time_machine.travel(timezone.now() + timedelta(seconds=settings.MEMBERS_SIGNIN_LINK_SECONDS + 5)):
        reply = exchange(site, token_of(link))
    assert reply.status_code == 400 and reply.json()["code"] == "link_invalid"


def test_another_companys_link_and_tokens_are_refused(site, other_tenant):
    Client.objects.filter(pk=other_tenant.pk).update(website_url=WEBSITE)
    other_tenant.refresh_from_db()
    factories.member(site, email="ada@example.com")
    factories.member(other_tenant, email="ada@example.com")  # the same reader in both companies
    link = signin_link(site, "ada@example.com")
    assert exchange(other_tenant, token_of(link)).status_code == 400  # the link of one company on another
    session = exchange(site, token_of(link)).json()["token"]
    with schema_context(other_tenant.schema_name):
        assert tokens.session_member(session) is None  # a member token of one company on another
    with schema_context(site.schema_name):
        assert tokens.session_member(session) is not None


def test_forged_tokens_and_other_kinds_of_token_are_refused(site):
    member = factories.member(site, email="ada@example.com")
    with schema_context(site.schema_name):
        preferences = tokens.preferences_token(member.pk)
        session, _ = tokens.session_token(member)
    for token in ("", "x" * 5000, "not.a.token", preferences, session):
        reply = exchange(site, token)
        assert reply.status_code == 400, (token[:20], reply.content)
    with schema_context(site.schema_name):
        assert tokens.session_member(preferences) is None
        assert tokens.session_member(session[:-2] + "xx") is None


def test_a_new_address_ends_the_members_sessions_and_links(site):
    member = factories.member(site, email="ada@example.com")
    link = signin_link(site, "ada@example.com")
    with schema_context(site.schema_name):
        session, _ = tokens.session_token(member)
        member_update(member=member, email="ada@new.example.com")
        assert tokens.session_member(session) is None
    assert exchange(site, token_of(link)).status_code == 400


def test_sign_in_requests_are_throttled(site, settings):
    settings.MEMBERS_SIGNIN_RATE_PER_EMAIL = "2/hour"
    codes = [public(site).post("/api/v1/members/signin", {"email": "ada@example.com"}).status_code for _ in range(3)]
    assert codes == [202, 202, 429]
