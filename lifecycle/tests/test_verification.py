"""Email verification at sign-up: the email (a real worker, a real SMTP server), the public API
closed until the link is opened, the link's rules, the resend, the deletion of unverified companies."""
from __future__ import annotations

from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from django.utils import timezone

from apps.core import testing
from apps.core.mailcatcher import links, parts
from tenants.models import Client
from lifecycle.verification import unverified_delete_due

SIGNUP = {"companyName": "Verify Co", "contactName": "Vera", "contactEmail": "contact@verify.example.com",
          "adminUsername": "vera", "adminEmail": "Vera@Verify.example.com", "adminPassword": "password-123"}


def _token(message) -> str:
    [url] = [u for u in links(message) if "/verify-email?" in u]
    return parse_qs(urlsplit(url).query)["token"][0]


@pytest.mark.django_db(transaction=True)
def test_signup_is_instant_the_api_waits_for_the_emailed_link(smtp, mail_worker):
    sub = testing.unique_subdomain("ver")
    created = testing.Api(None).post("/api/auth/register-client", {**SIGNUP, "subdomain": sub})
    assert created.status_code == 201, created.content
    client = Client.objects.get(subdomain=sub)
    anon = testing.Api(client)
    login = anon.post("/api/auth/login", {"email": "vera@verify.example.com", "password": "password-123"})
    assert login.status_code == 200  # the admin signs in at once
    admin = testing.Api(client, token=login.json()["token"])
    state = admin.get("/api/client/verification").json()
    assert state["verified"] is False and state["email"] == "vera@verify.example.com"

    site = testing.Api(client, headers={"x-api-key": client.api_key})
    closed = site.get("/api/v1/posts")
    assert closed.status_code == 403 and closed.json()["code"] == "email_unverified"
    assert "verified its email" in closed.json()["message"]

    [message] = smtp.wait_for(1)
    text, html = parts(message)
    assert message["To"] == "vera@verify.example.com" and "Verify Co" in message["Subject"]
    assert "Verify Co" in text and "Verify Co" in html
    [url] = [u for u in links(message) if "/verify-email?" in u]
    assert url.startswith(f"http://{testing.host_of(client)}/verify-email?")
    token = _token(message)

    # another company's host does not take it
    other = testing.create_tenant()
    assert testing.Api(other).post("/api/client/verify-email", {"token": token}).json()["code"] == "link_invalid"

    done = anon.post("/api/client/verify-email", {"token": token})
    assert done.status_code == 200 and "verified" in done.json()["message"]
    assert admin.get("/api/client/verification").json()["verified"] is True
    assert site.get("/api/v1/posts").status_code == 200
    again = anon.post("/api/client/verify-email", {"token": token})
    assert again.status_code == 200 and "already" in again.json()["message"]


@pytest.mark.django_db(transaction=True)
def test_resend_sends_a_new_link_and_the_old_one_stops_working(smtp, mail_worker, settings):
    client = testing.create_tenant(verified=False)
    first = _token(smtp.wait_for(1)[0])
    admin = testing.Api(client, user=testing.tenant_admin(client))
    viewer = testing.Api(client, user=testing.create_user(client, "viewer"))
    assert viewer.post("/api/client/verification/resend").status_code == 403
    resent = admin.post("/api/client/verification/resend")
    assert resent.status_code == 200, resent.content
    second = _token(smtp.wait_for(2)[1])
    anon = testing.Api(client)
    assert anon.post("/api/client/verify-email", {"token": first}).json()["code"] == "link_invalid"
    assert anon.post("/api/client/verify-email", {"token": second}).status_code == 200


def test_a_link_expires_and_an_altered_one_is_refused(db, settings):
    client = testing.create_tenant(verified=False)
    from lifecycle.verification import _token as make

    token = make(Client.objects.get(pk=client.pk))
    anon = testing.Api(client)
    assert anon.post("/api/client/verify-email", {"token": token[:-2] + "xx"}).json()["code"] == "link_invalid"
    settings.EMAIL_VERIFICATION_MAX_AGE = -1
    assert anon.post("/api/client/verify-email", {"token": token}).json()["code"] == "link_invalid"
    settings.EMAIL_VERIFICATION_MAX_AGE = 3600
    # bound to the address: the link no longer matches once the address changed
    Client.objects.filter(pk=client.pk).update(verification_email="someone.else@example.com")
    assert anon.post("/api/client/verify-email", {"token": token}).json()["code"] == "link_invalid"


def test_resend_is_throttled(db, settings):
    settings.VERIFICATION_RESEND_RATE = "1/hour"
    client = testing.create_tenant(verified=False)
    admin = testing.Api(client, user=testing.tenant_admin(client))
    assert admin.post("/api/client/verification/resend").status_code == 200
    limited = admin.post("/api/client/verification/resend")
    assert limited.status_code == 429 and "Retry-After" in limited.headers


def test_unverified_companies_are_deleted_after_the_configured_days(db, settings):
    settings.UNVERIFIED_COMPANY_DAYS = 7
    old = testing.create_tenant(verified=False)
    young = testing.create_tenant(verified=False)
    verified_old = testing.create_tenant()
    Client.objects.filter(pk__in=[old.pk, verified_old.pk]).update(created_at=timezone.now() - timedelta(days=8))
    assert unverified_delete_due() == 1
    statuses = dict(Client.objects.filter(pk__in=[old.pk, young.pk, verified_old.pk]).values_list("pk", "status"))
    assert statuses[old.pk] == Client.Status.DELETING
    assert statuses[young.pk] != Client.Status.DELETING and statuses[verified_old.pk] != Client.Status.DELETING
    # a company being deleted answers like an unknown one
    assert testing.Api(old).get("/api/client/verification").status_code == 404


def test_an_unverified_companys_deletion_is_queued_with_its_status_in_one_transaction(db, settings):
    """The beat's deletion goes through the same public step as an admin's request
    (lifecycle.deletion.client_deletion_start): the row turns `deleting` and the deletion's outbox
    row is written in that transaction, once, however often the beat runs."""
    from apps.core.models import OutboxMessage
    from lifecycle.deletion import DELETE_TASK

    settings.UNVERIFIED_COMPANY_DAYS = 7
    old = testing.create_tenant(verified=False)
    Client.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=8))
    assert unverified_delete_due() == 1
    assert unverified_delete_due() == 0  # already deleting: nothing more is queued
    rows = OutboxMessage.objects.filter(task=DELETE_TASK, kwargs={"client_id": old.pk})
    assert [(row.key, row.schema_name) for row in rows] == [(f"company-delete:{old.pk}", "public")]
