"""Sign-in on the root domain by email: the public directory of accounts stays in step with every
company's users, and "find my companies" emails the sign-in links of the address's active accounts
(read from the real SMTP server, sent by a real Celery worker)."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from django.core.management import call_command
from django_tenants.utils import schema_context

from apps.accounts import services
from apps.core import testing
from apps.core.mailcatcher import links, parts
from tenants.directory import FIND_REQUESTED, companies_for_email, find_companies_email
from tenants.models import AccountDirectory, Client, OutgoingEmail


def rows(email: str) -> set[tuple[str, bool]]:
    return set(AccountDirectory.objects.filter(email=email).values_list("client__subdomain", "active"))


def test_the_directory_follows_every_change_of_a_user(make_tenant):
    tenant = make_tenant(admin_email="Boss@Example.com")
    admin = testing.tenant_admin(tenant)
    assert rows("boss@example.com") == {(tenant.subdomain, True)}  # sign-up
    user = testing.create_user(tenant, "editor", email="pat@example.com")
    assert rows("pat@example.com") == {(tenant.subdomain, True)}
    with schema_context(tenant.schema_name):
        services.user_update(actor=admin, user=user, email="pat.new@example.com")
        assert rows("pat@example.com") == set() and rows("pat.new@example.com") == {(tenant.subdomain, True)}
        services.user_update(actor=admin, user=user, status="suspended")
        assert rows("pat.new@example.com") == {(tenant.subdomain, False)}
        services.user_update(actor=admin, user=user, status="active")
        assert rows("pat.new@example.com") == {(tenant.subdomain, True)}
        services.user_delete(actor=admin, user=user)
    assert rows("pat.new@example.com") == set()


def test_an_accepted_invitation_is_in_the_directory(tenant, api):
    from apps.accounts.models import Invitation

    api.post("/api/invitations", {"email": "guest@example.com", "role": "viewer"})
    with schema_context(tenant.schema_name):
        Invitation.objects.filter(email="guest@example.com").update(token_hash=services._token_hash("t-guest"))
    accepted = testing.Api(tenant).post("/api/auth/accept-invitation",
                                        {"token": "t-guest", "username": "guest", "password": "password-123"})
    assert accepted.status_code == 201
    assert rows("guest@example.com") == {(tenant.subdomain, True)}


def test_the_rebuild_command_fills_the_directory_of_existing_companies(make_tenant):
    first, second = make_tenant(), make_tenant()
    testing.create_user(second, "viewer", email="old@example.com", status="inactive")
    AccountDirectory.objects.all().delete()  # as before the directory existed
    call_command("account_directory_rebuild")
    assert rows("old@example.com") == {(second.subdomain, False)}
    assert rows("admin@example.com") == {(first.subdomain, True), (second.subdomain, True)}
    AccountDirectory.objects.all().delete()
    call_command("account_directory_rebuild", first.subdomain)
    assert rows("admin@example.com") == {(first.subdomain, True)}


def test_only_active_accounts_of_serving_companies_are_listed(make_tenant):
    active, suspended, deleting, other = make_tenant(), make_tenant(), make_tenant(), make_tenant()
    for company in (active, suspended, deleting):
        testing.create_user(company, "editor", email="multi@example.com")
    testing.create_user(other, "editor", email="multi@example.com", status="suspended")
    Client.objects.filter(pk=suspended.pk).update(status=Client.Status.SUSPENDED)
    Client.objects.filter(pk=deleting.pk).update(status=Client.Status.DELETING)
    assert [c.subdomain for c in companies_for_email(" MULTI@example.com ")] == [active.subdomain]
    # nobody there: nothing is sent at all
    before = OutgoingEmail.objects.count()
    assert find_companies_email(email="nobody@example.com") == 0
    assert OutgoingEmail.objects.count() == before


@pytest.mark.django_db(transaction=True)
def test_find_my_companies_emails_the_sign_in_links(make_tenant, smtp, mail_worker):
    acme, globex, gone = make_tenant(), make_tenant(), make_tenant()
    testing.create_user(acme, "editor", email="jo@example.com")
    testing.create_user(globex, "viewer", email="JO@example.com")
    testing.create_user(gone, "viewer", email="jo@example.com")
    Client.objects.filter(pk=gone.pk).update(status=Client.Status.SUSPENDED)
    root = testing.Api(None)

    reply = root.post("/api/auth/find-companies", {"email": "Jo@Example.com"})
    assert reply.status_code == 200 and reply.json() == {"success": True, "message": FIND_REQUESTED}
    unknown = root.post("/api/auth/find-companies", {"email": "stranger@example.com"})
    assert unknown.status_code == 200 and unknown.json() == reply.json()  # no enumeration

    [message] = smtp.wait_for(1)
    assert message["To"] == "jo@example.com"
    text, html = parts(message)
    assert acme.name in text and globex.name in html and gone.name not in text
    sign_in = sorted(url for url in links(message) if "/login?" in url)
    assert sign_in == sorted(f"http://{testing.host_of(c)}/login?email=jo%40example.com" for c in (acme, globex))
    assert parse_qs(urlsplit(sign_in[0]).query)["email"] == ["jo@example.com"]
    smtp.wait_for(1, timeout=2)
    assert smtp.to("stranger@example.com") == []


def test_find_my_companies_is_throttled_and_validated(db, settings):
    settings.FIND_COMPANIES_RATE_PER_EMAIL = "2/hour"
    settings.FIND_COMPANIES_RATE_PER_IP = "3/hour"
    root = testing.Api(None)
    bad = root.post("/api/auth/find-companies", {"email": "not-an-address"})
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "email"
    assert [root.post("/api/auth/find-companies", {"email": "a@example.com"}).status_code for _ in range(3)] == [
        200, 200, 429]
    # the address's limit is used up; another address from the same client reaches the client's limit
    assert root.post("/api/auth/find-companies", {"email": "b@example.com"}).status_code == 200
    limited = root.post("/api/auth/find-companies", {"email": "c@example.com"})
    assert limited.status_code == 429 and int(limited["Retry-After"]) > 0


def test_find_my_companies_is_not_on_a_company_host(tenant):
    assert testing.Api(tenant).post("/api/auth/find-companies", {"email": "a@example.com"}).status_code == 404
