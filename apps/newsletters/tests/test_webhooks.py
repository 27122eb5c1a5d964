"""The email provider's signed events (anymail's tracking webhook, Mailgun's signature here): a bounce
or a complaint disables the member's email with the reason and marks the send's delivery; a
forged or unsigned event changes nothing; an event of no company of ours is ignored."""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time

import pytest
from django.test import Client as HttpClient
from django_tenants.utils import schema_context

from apps.members.models import Member
from apps.members.tests import factories
from apps.newsletters.models import Delivery, Send
from apps.newsletters.tests.helpers import post as make_post

KEY = "mailgun-signing-key"
SECRET = "hooks:s3cret-value"
URL = "/webhooks/email/mailgun/tracking/"


@pytest.fixture(autouse=True)
def _anymail(settings):
    settings.ANYMAIL = {"MAILGUN_WEBHOOK_SIGNING_KEY": KEY, "WEBHOOK_SECRET": SECRET}


def _signed(event_data: dict, *, key: str = KEY) -> dict:
    timestamp, token = str(int(time.time())), f"token-{time.time_ns()}"
    signature = hmac.new(key.encode(), f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    return {"signature": {"timestamp": timestamp, "token": token, "signature": signature}, "event-data": event_data}


def post_event(body: dict, *, secret: str = SECRET):
    auth = "Basic " + base64.b64encode(secret.encode()).decode()
    return HttpClient(HTTP_HOST="testserver.local").post(URL, json.dumps(body), content_type="application/json",
                                                         HTTP_AUTHORIZATION=auth)


def _event(kind: str, recipient: str, metadata: dict, **extra) -> dict:
    return {"event": kind, "recipient": recipient, "timestamp": time.time(), "id": "evt",
            "message": {"headers": {"message-id": "provider-id@mailgun.example"}}, "user-variables": metadata,
            "delivery-status": {"code": 550, "message": "5.1.1 The email account does not exist",
                                "description": "mailbox unavailable"}, **extra}


@pytest.fixture
def sent(tenant):
    """A member, and a send whose delivery to them was accepted by the provider."""
    newsletter = factories.default_newsletter(tenant)
    member = factories.member(tenant, email="ada@example.com")
    post = make_post(tenant)
    with schema_context(tenant.schema_name):
        send = Send.objects.create(post=post, post_title=post.title, newsletter=newsletter, subject="s",
                                   status="sent", recipients=1)
        Delivery.objects.create(send=send, member=member, email=member.email, status="sent")
    return member, send


def test_a_hard_bounce_disables_the_members_email(tenant, sent, api):
    member, send = sent
    metadata = {"company": tenant.schema_name, "send": str(send.id), "member": str(member.id)}
    reply = post_event(_signed(_event("failed", "ada@example.com", metadata, severity="permanent")))
    assert reply.status_code == 200, reply.content
    with schema_context(tenant.schema_name):
        member.refresh_from_db()
        assert member.email_disabled is True
        assert member.email_disabled_reason.startswith("bounced (Mailgun): mailbox unavailable")
        assert Delivery.objects.get(send=send).status == "bounced"
    report = api.get(f"/api/newsletters/sends/{send.id}").json()
    assert report["counts"]["bounced"] == 1 and report["reasons"][0]["status"] == "bounced"
    # staff see it, and may send to the address again
    shown = api.get(f"/api/members/{member.id}").json()["member"]
    assert shown["emailDisabled"] is True and "mailbox unavailable" in shown["emailDisabledReason"]


def test_a_complaint_disables_and_a_soft_bounce_does_not(tenant, sent):
    member, send = sent
    metadata = {"company": tenant.schema_name, "send": str(send.id), "member": str(member.id)}
    assert post_event(_signed(_event("failed", "ada@example.com", metadata, severity="temporary"))).status_code == 200
    with schema_context(tenant.schema_name):
        assert Member.objects.get(pk=member.pk).email_disabled is False  # deferred: the provider tries again
    assert post_event(_signed(_event("complained", "ada@example.com", metadata))).status_code == 200
    with schema_context(tenant.schema_name):
        assert Member.objects.get(pk=member.pk).email_disabled is True
        assert Delivery.objects.get(send=send).status == "complained"


def test_the_provider_unsubscribing_takes_the_member_off_every_newsletter(tenant, sent):
    member, _send = sent
    post_event(_signed(_event("unsubscribed", "ada@example.com", {"company": tenant.schema_name})))
    with schema_context(tenant.schema_name):
        assert not Member.objects.get(pk=member.pk).newsletters.exists()


def test_forged_and_unauthenticated_events_change_nothing(tenant, sent):
    member, send = sent
    metadata = {"company": tenant.schema_name, "send": str(send.id)}
    body = _event("failed", "ada@example.com", metadata, severity="permanent")
    assert post_event(_signed(body, key="another-key")).status_code == 400  # signed with a wrong key
    assert post_event(_signed(body), secret="hooks:wrong").status_code in (400, 401, 403)
    forged = _signed(body)
    forged["event-data"]["recipient"] = "someone@example.com"  # the signature covers the token only: the
    forged["signature"]["signature"] = "0" * 64                # basic-auth secret is the other half
    assert post_event(forged).status_code == 400
    with schema_context(tenant.schema_name):
        assert Member.objects.get(pk=member.pk).email_disabled is False


def test_an_event_of_another_company_or_of_none_is_kept_to_its_company(tenant, other_tenant, sent):
    member, _send = sent
    theirs = factories.member(other_tenant, email="ada@example.com")
    post_event(_signed(_event("failed", "ada@example.com", {"company": other_tenant.schema_name},
                              severity="permanent")))
    with schema_context(tenant.schema_name):
        assert Member.objects.get(pk=member.pk).email_disabled is False
    with schema_context(other_tenant.schema_name):
        assert Member.objects.get(pk=theirs.pk).email_disabled is True
    for metadata in ({}, {"company": "t_no_such_company"}, {"company": ["x"]}):
        assert post_event(_signed(_event("failed", "ada@example.com", metadata, severity="permanent"))).status_code == 200
    with schema_context(tenant.schema_name):
        assert Member.objects.get(pk=member.pk).email_disabled is False


def test_our_message_id_names_the_company_when_metadata_is_lost(tenant, sent):
    member, send = sent
    message_id = f"<{send.id.hex}.{member.id.hex}@{tenant.subdomain}.testserver.local>"
    event = _event("failed", "ada@example.com", {}, severity="permanent")
    event["message"]["headers"]["message-id"] = message_id
    post_event(_signed(event))
    with schema_context(tenant.schema_name):
        assert Member.objects.get(pk=member.pk).email_disabled is True
        assert Delivery.objects.get(send=send).status == "bounced"


# --- no webhook secret outside development (docs/newsletters.md#bounces-and-complaints) --------------
POSTMARK_URL = "/webhooks/email/postmark/tracking/"  # Postmark signs nothing: basic auth is all


def _postmark_bounce(schema: str) -> str:
    return json.dumps({"RecordType": "Bounce", "Type": "HardBounce", "Email": "ada@example.com",
                       "MessageID": "883953f4-6105-42a2-a16a-77a8eac79483", "Metadata": {"company": schema},
                       "Description": "The server was unable to deliver your message"})


@pytest.mark.parametrize("anymail", [{}, {"WEBHOOK_SECRET": ""}, {"WEBHOOK_SECRET": []}])
def test_without_a_webhook_secret_an_event_is_refused_and_changes_nothing(tenant, sent, settings, anymail):
    member, _send = sent
    settings.ANYMAIL = anymail  # DEBUG is off, as in production
    reply = HttpClient(HTTP_HOST="testserver.local").post(POSTMARK_URL, _postmark_bounce(tenant.schema_name),
                                                          content_type="application/json")
    assert reply.status_code == 403, reply.content
    assert "WEBHOOK_SECRET" not in reply.content.decode()  # the configuration is not the caller's business
    with schema_context(tenant.schema_name):
        assert Member.objects.get(pk=member.pk).email_disabled is False


def test_with_its_secret_postmarks_event_is_taken_and_in_development_none_is_needed(tenant, sent, settings):
    member, _send = sent
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    body = _postmark_bounce(tenant.schema_name)
    client = HttpClient(HTTP_HOST="testserver.local")
    assert client.post(POSTMARK_URL, body, content_type="application/json").status_code == 400  # no secret given
    auth = "Basic " + base64.b64encode(SECRET.encode()).decode()
    assert client.post(POSTMARK_URL, body, content_type="application/json", HTTP_AUTHORIZATION=auth).status_code == 200
    with schema_context(tenant.schema_name):
        assert Member.objects.get(pk=member.pk).email_disabled is True
        Member.objects.filter(pk=member.pk).update(email_disabled=False)
    settings.ANYMAIL, settings.DEBUG = {}, True  # `make dev`: anymail warns and takes it
    with pytest.warns(Warning, match="WEBHOOK_SECRET"):
        assert client.post(POSTMARK_URL, body, content_type="application/json").status_code == 200


def _start(**env):
    from config.tests.test_signing_keys import COMMANDS, run

    return run(COMMANDS["management command"], **env)


@pytest.mark.parametrize("anymail", ['{"MAILGUN_API_KEY": "key-1"}', '{"WEBHOOK_SECRET": ""}',
                                     '{"WEBHOOK_SECRET": "hooks:a-long-random-secret"}',
                                     '{"WEBHOOK_SECRET": "no-password"}'])
def test_a_provider_without_a_usable_webhook_secret_refuses_to_start(anymail):
    result = _start(NEWSLETTER_EMAIL_BACKEND="anymail.backends.mailgun.EmailBackend", ANYMAIL=anymail)
    assert result.returncode == 2, (result.stdout[-500:], result.stderr[-2000:])
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Refusing to start: ANYMAIL's WEBHOOK_SECRET "), result.stderr


def test_a_provider_with_its_secret_smtp_without_and_development_start():
    provider = "anymail.backends.mailgun.EmailBackend"
    secret = '{"MAILGUN_API_KEY": "key-1", "WEBHOOK_SECRET": "hooks:' + "x1" * 16 + '"}'
    for env in ({"NEWSLETTER_EMAIL_BACKEND": provider, "ANYMAIL": secret},
                {"NEWSLETTER_EMAIL_BACKEND": None, "ANYMAIL": None},  # Django's SMTP: no provider's events
                {"NEWSLETTER_EMAIL_BACKEND": provider, "ANYMAIL": "{}", "DEBUG": "1"}):
        result = _start(**env)
        assert result.returncode == 0, (env, result.stderr[-2000:])
