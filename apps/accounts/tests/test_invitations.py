"""Invitations by email: an admin invites, the email arrives on a real SMTP server (sent by a real
Celery worker), the invitee picks a username and password and is signed in."""
from __future__ import annotations

import time
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.accounts.models import Invitation, User
from apps.core import testing
from apps.core.mailcatcher import links, parts


def _token(message) -> str:
    [url] = [u for u in links(message) if "/accept-invite?" in u]
    return parse_qs(urlsplit(url).query)["token"][0]


@pytest.mark.django_db(transaction=True)
def test_invite_accept_signed_in(make_tenant, smtp, mail_worker):
    tenant = make_tenant()
    api = testing.Api(tenant, user=testing.tenant_admin(tenant))
    created = api.post("/api/invitations", {"email": "New.Person@Example.com", "role": "editor"})
    assert created.status_code == 201, created.content
    invitation = created.json()["invitation"]
    assert invitation["email"] == "new.person@example.com" and invitation["role"] == "editor"
    assert invitation["expired"] is False and invitation["invitedBy"] == api.user.username
    assert [i["id"] for i in api.get("/api/invitations").json()["invitations"]] == [invitation["id"]]

    [message] = smtp.wait_for(1)
    text, html = parts(message)
    assert message["To"] == "new.person@example.com" and tenant.name in message["Subject"]
    assert "editor" in text and tenant.name in html
    [url] = [u for u in links(message) if "/accept-invite?" in u]
    assert url.startswith(f"http://{testing.host_of(tenant)}/accept-invite?")
    token = _token(message)

    anon = testing.Api(tenant)
    check = anon.post("/api/auth/invitation/check", {"token": token})
    assert check.status_code == 200 and check.json()["email"] == "new.person@example.com"
    bad = anon.post("/api/auth/accept-invitation", {"token": token, "username": "x", "password": "short"})
    assert bad.status_code == 400 and {e["field"] for e in bad.json()["errors"]} == {"username", "password"}
    taken = anon.post("/api/auth/accept-invitation",
                      {"token": token, "username": api.user.username, "password": "password-123"})
    assert taken.status_code == 409 and taken.json()["errors"][0]["field"] == "username"

    accepted = anon.post("/api/auth/accept-invitation", {"token": token, "username": "newperson",
                                                         "password": "password-123"})
    assert accepted.status_code == 201, accepted.content
    body = accepted.json()
    assert body["user"]["role"] == "editor" and body["user"]["username"] == "newperson"
    me = testing.Api(tenant, token=body["token"]).get("/api/auth/me").json()["user"]
    assert me["email"] == "new.person@example.com" and me["lastLogin"] is not None
    assert anon.post("/api/auth/login", {"email": "new.person@example.com", "password": "password-123"}).status_code == 200
    # used: the link is refused, the invitation leaves the pending list
    again = anon.post("/api/auth/accept-invitation", {"token": token, "username": "other", "password": "password-123"})
    assert again.status_code == 400 and again.json()["code"] == "link_invalid"
    assert api.get("/api/invitations").json()["invitations"] == []


@pytest.mark.django_db(transaction=True)
def test_resend_replaces_the_link_and_revoke_ends_it(make_tenant, smtp, mail_worker):
    tenant = make_tenant()
    api = testing.Api(tenant, user=testing.tenant_admin(tenant))
    invitation = api.post("/api/invitations", {"email": "pat@example.com", "role": "author"}).json()["invitation"]
    first = _token(smtp.wait_for(1)[0])
    resent = api.post(f"/api/invitations/{invitation['id']}/resend")
    assert resent.status_code == 200 and resent.json()["invitation"]["id"] == invitation["id"]
    second = _token(smtp.wait_for(2)[1])
    anon = testing.Api(tenant)
    assert first != second
    assert anon.post("/api/auth/invitation/check", {"token": first}).status_code == 400
    assert anon.post("/api/auth/invitation/check", {"token": second}).status_code == 200
    assert api.delete(f"/api/invitations/{invitation['id']}").status_code == 200
    assert anon.post("/api/auth/invitation/check", {"token": second}).json()["code"] == "link_invalid"
    assert api.delete(f"/api/invitations/{invitation['id']}").status_code == 404
    assert api.get("/api/invitations").json()["invitations"] == []


def test_an_expired_invitation_is_refused_and_listed_as_expired(tenant, api):
    from apps.accounts import services

    with schema_context(tenant.schema_name):
        invitation = services.invitation_create(actor=api.user, email="late@example.com", role="viewer")
        token = "known-token"
        Invitation.objects.filter(pk=invitation.pk).update(
            token_hash=services._token_hash(token), expires_at=timezone.now() - timedelta(seconds=1))
    reply = testing.Api(tenant).post("/api/auth/accept-invitation",
                                     {"token": token, "username": "late", "password": "password-123"})
    assert reply.status_code == 400 and reply.json()["code"] == "link_invalid"
    [listed] = api.get("/api/invitations").json()["invitations"]
    assert listed["expired"] is True
    with schema_context(tenant.schema_name):
        assert not User.objects.filter(email="late@example.com").exists()


def test_inviting_an_existing_user_or_a_bad_role_is_refused(api, admin):
    taken = api.post("/api/invitations", {"email": admin.email, "role": "viewer"})
    assert taken.status_code == 409 and taken.json()["code"] == "email_taken"
    bad = api.post("/api/invitations", {"email": "x@example.com", "role": "owner"})
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "role"


def test_inviting_the_same_address_again_replaces_the_open_invitation(api):
    first = api.post("/api/invitations", {"email": "twice@example.com", "role": "viewer"}).json()["invitation"]
    second = api.post("/api/invitations", {"email": "twice@example.com", "role": "editor"}).json()["invitation"]
    assert [(i["id"], i["role"]) for i in api.get("/api/invitations").json()["invitations"]] == [
        (second["id"], "editor")]
    assert first["id"] != second["id"]


@pytest.mark.parametrize("role", ["editor", "author", "viewer"])
def test_only_admins_manage_invitations(tenant, api, role):
    invitation = api.post("/api/invitations", {"email": "someone@example.com", "role": "viewer"}).json()["invitation"]
    other = testing.Api(tenant, user=testing.create_user(tenant, role))
    assert other.get("/api/invitations").status_code == 403
    assert other.post("/api/invitations", {"email": "b@example.com", "role": "admin"}).status_code == 403
    assert other.post(f"/api/invitations/{invitation['id']}/resend").status_code == 403
    assert other.delete(f"/api/invitations/{invitation['id']}").status_code == 403


def test_another_companys_invitation_is_not_found_and_its_link_is_refused(make_tenant):
    from apps.accounts import services

    ours, theirs = make_tenant(), make_tenant()
    their_admin = testing.tenant_admin(theirs)
    with schema_context(theirs.schema_name):
        invitation = services.invitation_create(actor=their_admin, email="x@example.com", role="viewer")
        Invitation.objects.filter(pk=invitation.pk).update(token_hash=services._token_hash("their-token"))
    api = testing.Api(ours, user=testing.tenant_admin(ours))
    assert api.post(f"/api/invitations/{invitation.pk}/resend").status_code == 404
    assert api.delete(f"/api/invitations/{invitation.pk}").status_code == 404
    assert testing.Api(ours).post("/api/auth/invitation/check", {"token": "their-token"}).status_code == 400
    # their admin's token on our host
    assert testing.Api(ours, token=testing.token_for(theirs, their_admin)).get("/api/invitations").status_code == 401


