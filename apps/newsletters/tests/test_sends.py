"""Sending a post to a newsletter, to a real SMTP server through anymail's interface: who receives
it (once each), what each email carries (headers, links, inlined CSS, absolute addresses, a
plain-text part), the report, the plan's emails, scheduled posts, test emails, refusals."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.core.mailcatcher import parts
from apps.core.testing import Api
from apps.members.models import Member
from apps.members.tests import factories
from apps.members.tests.helpers import run_outbox
from apps.newsletters.models import Delivery, Send
from apps.newsletters.tests.helpers import post as make_post, run_sends
from tenants.models import Client

CONTENT = ('<h2 style="text-align: center">Spring</h2><p>Hello <a href="/about">readers</a></p>'
           '<p><img src="/media/co/media/1/photo.png" alt="A photo"></p>'
           '<iframe src="https://www.youtube.com/embed/abc123" width="560" height="315"></iframe>')


@pytest.fixture
def readers(tenant):
    """Three subscribers of the first newsletter, one whose email bounced, one not subscribed."""
    newsletter = factories.default_newsletter(tenant)
    members = [factories.member(tenant, email=f"r{n}@example.com", labels=["vip"] if n == 0 else [])
               for n in range(3)]
    factories.member(tenant, email="bounced@example.com", email_disabled=True)
    factories.member(tenant, email="unsubscribed@example.com", newsletters=[])
    return newsletter, members


def test_the_first_newsletter_and_its_members_are_listed(api, readers):
    newsletter, _ = readers
    [listed] = api.get("/api/newsletters").json()["newsletters"]
    assert listed["id"] == str(newsletter.id) and listed["name"] == "Newsletter" and listed["members"] == 3


def test_newsletters_are_created_and_changed(api):
    reply = api.post("/api/newsletters", {"name": "Weekly", "senderName": "Ada at Acme", "replyTo": "Ada@Acme.example",
                                          "footer": "Acme Ltd\n1 Main St", "defaultOnSignup": False})
    assert reply.status_code == 201, reply.content
    made = reply.json()["newsletter"]
    assert made["slug"] == "weekly" and made["replyTo"] == "ada@acme.example" and made["defaultOnSignup"] is False
    assert api.post("/api/newsletters", {"name": "weekly"}).status_code == 409
    changed = api.put(f"/api/newsletters/{made['id']}", {"status": "archived", "senderName": "Acme"})
    assert changed.status_code == 200 and changed.json()["newsletter"]["status"] == "archived"


@pytest.mark.parametrize("body", [{"name": "Weekly\r\nBcc: victim@example.com"}, {"name": "x", "senderName": "Ada\nBcc: x"},
                                  {"name": "x", "replyTo": "a@example.com\r\nBcc: x@example.com"},
                                  {"name": "x", "senderName": "Ada\rX"}, {"name": ""}, {"name": "x" * 200},
                                  {"name": "x", "headerImage": "javascript:alert(1)"}, {"name": "x", "sortOrder": -1}])
def test_header_text_on_several_lines_and_other_hostile_values_are_400(api, body):
    reply = api.post("/api/newsletters", body)
    assert reply.status_code == 400, reply.content


def test_a_subject_on_several_lines_is_400(api, tenant, readers):
    newsletter, _ = readers
    post = make_post(tenant)
    reply = api.post(f"/api/posts/{post.id}/send", {"newsletterId": str(newsletter.id),
                                                    "subject": "Hello\r\nBcc: everyone@example.com"})
    assert reply.status_code == 400 and reply.json()["errors"][0]["field"] == "subject"


def test_the_one_click_address_is_https_where_the_company_hosts_are_served_over_https(api, tenant, readers,
                                                                                    smtp_server, settings):
    """Mail apps (and Gmail's and Yahoo's rules for bulk senders) want List-Unsubscribe's address in
    https: with PUBLIC_SCHEME=https every email's one-click address and footer links are https."""
    settings.PUBLIC_SCHEME, settings.PUBLIC_PORT = "https", "443"
    newsletter, _ = readers
    post = make_post(tenant, title="Secure issue", content=CONTENT)
    assert api.post(f"/api/posts/{post.id}/send", {"newsletterId": str(newsletter.id)}).status_code == 202
    assert run_sends() == 1
    host = f"{tenant.subdomain}.testserver.local"
    for message in smtp_server.wait_for(3):
        one_click = re.match(r"<([^>]+)>, <mailto:", _header(message, "List-Unsubscribe")).group(1)
        assert one_click.startswith(f"https://{host}/members/unsubscribe?token=")
        assert _header(message, "List-Unsubscribe-Post") == "List-Unsubscribe=One-Click"
        text, _html = parts(message)
        assert f"Unsubscribe: {one_click}" in text
        assert f"Manage your preferences: https://{host}/members/preferences?token=" in text


def test_the_recipient_count_before_confirming(api, tenant, readers):
    newsletter, members = readers
    post = make_post(tenant)
    count = api.get(f"/api/posts/{post.id}/send/recipients", {"newsletterId": str(newsletter.id)})
    assert count.status_code == 200 and count.json()["recipients"] == 3
    with schema_context(tenant.schema_name):
        vip = members[0].labels.get()
    assert api.get(f"/api/posts/{post.id}/send/recipients", {"newsletterId": str(newsletter.id),
                                                             "labelId": str(vip.id)}).json()["recipients"] == 1


def _header(message, name: str) -> str:
    return str(message[name] or "")


def test_a_published_post_goes_to_each_subscriber_once_with_their_own_links(api, tenant, readers, smtp_server):
    newsletter, members = readers
    Client.objects.filter(pk=tenant.pk).update(website_url="https://blog.example.com")
    api.put(f"/api/newsletters/{newsletter.id}", {"senderName": "Acme Weekly", "replyTo": "editor@acme.example",
                                                  "footer": "Acme Ltd, 1 Main St"})
    post = make_post(tenant, title="Spring issue", content=CONTENT)
    reply = api.post(f"/api/posts/{post.id}/send", {"newsletterId": str(newsletter.id)})
    assert reply.status_code == 202, reply.content
    send = reply.json()["send"]
    assert send["status"] == "queued" and send["subject"] == "Spring issue"
    assert run_sends() == 1
    received = smtp_server.wait_for(3)
    assert sorted(str(m["To"]) for m in received) == ["r0@example.com", "r1@example.com", "r2@example.com"]
    host = f"{tenant.subdomain}.testserver.local"
    tokens = set()
    for message in received:
        member = next(m for m in members if m.email == str(message["To"]))
        assert _header(message, "Message-ID").strip() == f"<{send['id'].replace('-', '')}.{member.id.hex}@{host}>"
        assert _header(message, "Subject") == "Spring issue"
        assert _header(message, "From").startswith("Acme Weekly <") and _header(message, "Reply-To") == "editor@acme.example"
        assert _header(message, "List-Unsubscribe-Post") == "List-Unsubscribe=One-Click"
        assert _header(message, "List-Id") == f'"Newsletter" <{newsletter.id.hex}.{host}>'
        raw = next(r for r in smtp_server.raw if f"To: {member.email}".encode() in r).decode("utf-8", "replace")
        assert re.search(r"^List-Unsubscribe: <http://\S+>, <mailto:\S+>\r?$", raw, re.M)  # one line, no encoded words
        unsubscribe = _header(message, "List-Unsubscribe")
        one_click, mailto = re.fullmatch(r"<(https://[^>]+|http://[^>]+)>, <(mailto:[^>]+)>", unsubscribe).groups()
        assert one_click.startswith(f"http://{host}/members/unsubscribe?token=") and str(member.id) in mailto
        text, html = parts(message)
        assert "Spring issue" in text and "Hello readers (http://" in text and one_click in text
        assert one_click.replace("&", "&amp;") in html or one_click in html
        assert f'src="http://{host}/media/co/media/1/photo.png"' in html  # absolute
        assert 'href="https://www.youtube.com/embed/abc123"' in html and "<iframe" not in html
        assert re.search(r'<h1 class="title" style="[^"]*font-size', html)  # CSS inlined
        assert "@media (max-width: 620px)" in html  # kept for the mail apps that read it
        assert "Read on the website" in html and "Acme Ltd, 1 Main St" in html
        tokens.add(one_click)
    assert len(tokens) == 3  # each member's own link
    # the one-click link of an email takes its member off this newsletter
    target = urlsplit(tokens.pop())
    assert Api(tenant).post(f"{target.path}?{target.query}", "List-Unsubscribe=One-Click",
                            content_type="application/x-www-form-urlencoded").status_code == 200
    report = api.get(f"/api/newsletters/sends/{send['id']}").json()
    assert report["send"]["status"] == "sent" and report["send"]["recipients"] == 3
    assert report["counts"] == {"pending": 0, "delivered": 3, "failed": 0, "bounced": 0, "complained": 0,
                                "skipped": 0, "opened": None, "clicked": None}  # opens and clicks not tracked
    assert report["tracking"] == {"opens": False, "clicks": False} and report["links"] == []
    again = api.post(f"/api/posts/{post.id}/send", {"newsletterId": str(newsletter.id)})
    assert again.status_code == 409


def test_a_french_companys_email_says_its_own_words_in_french(api, tenant, readers, smtp_server):
    """The text around the post (the button, the date, the footer's reason and links) is in the
    language of the members' pages (apps.members.i18n): here the company's, French."""
    from datetime import datetime, timezone as tz

    from apps.content.models import Post

    newsletter, _ = readers
    Client.objects.filter(pk=tenant.pk).update(website_url="https://blog.example.com", default_language="fr",
                                               languages=["fr"])
    post = make_post(tenant, title="Printemps", language="fr")
    with schema_context(tenant.schema_name):
        Post.objects.filter(pk=post.pk).update(published_at=datetime(2026, 3, 15, 9, 0, tzinfo=tz.utc))
    api.post(f"/api/posts/{post.id}/send", {"newsletterId": str(newsletter.id)})
    run_sends()
    message = smtp_server.wait_for(3)[0]
    text, html = parts(message)
    for part in (text, html):
        assert "Lire sur le site" in part and "15 mars 2026" in part
        assert "Vous recevez Newsletter parce que vous êtes abonné à" in part
        assert "Gérer vos préférences" in part and "Se désabonner" in part
        for english in ("Read on the website", "You receive", "because you subscribed", "Manage your preferences",
                        "Unsubscribe", "March"):
            assert english not in part, english
    assert '<html lang="fr">' in html


def test_a_label_narrows_the_send(api, tenant, readers, smtp_server):
    newsletter, members = readers
    with schema_context(tenant.schema_name):
        vip = members[0].labels.get()
    post = make_post(tenant)
    api.post(f"/api/posts/{post.id}/send", {"newsletterId": str(newsletter.id), "labelId": str(vip.id)})
    run_sends()
    [message] = smtp_server.wait_for(1)
    assert str(message["To"]) == "r0@example.com"


def test_refused_addresses_and_a_server_that_asks_to_wait(api, tenant, readers, smtp_server, settings):
    newsletter, _ = readers
    settings.NEWSLETTER_RETRY_SECONDS = 0
    factories.member(tenant, email="refused@example.com")
    smtp_server.refuse = 1  # the first message: 451, tried again
    post = make_post(tenant)
    send_id = api.post(f"/api/posts/{post.id}/send", {"newsletterId": str(newsletter.id)}).json()["send"]["id"]
    from apps.core import outbox

    try:
        run_sends()
    except outbox.Later:
        pass
    with schema_context(tenant.schema_name):
        from apps.newsletters.delivery import send_run

        while Delivery.objects.filter(send_id=send_id, status="pending").exists():
            try:
                send_run(send_id=send_id)
            except outbox.Later:
                pass
    report = api.get(f"/api/newsletters/sends/{send_id}").json()
    assert report["counts"]["delivered"] == 3 and report["counts"]["failed"] == 1
    [reason] = report["reasons"]
    assert reason["status"] == "failed" and "550" in reason["reason"] and reason["count"] == 1
    assert len(smtp_server.messages) == 3  # the one that waited went once, later


def test_a_draft_is_not_sent_and_a_page_never(api, tenant, readers):
    newsletter, _ = readers
    draft = make_post(tenant, status="draft")
    assert api.post(f"/api/posts/{draft.id}/send", {"newsletterId": str(newsletter.id)}).status_code == 409
    page = make_post(tenant, kind="page")
    assert api.post(f"/api/posts/{page.id}/send", {"newsletterId": str(newsletter.id)}).status_code == 404
    archived = factories.newsletter(tenant, "Old", status="archived")
    post = make_post(tenant)
    assert api.post(f"/api/posts/{post.id}/send", {"newsletterId": str(archived.id)}).status_code == 400


def test_a_send_past_the_months_emails_is_refused_before_it_starts(api, tenant, readers, smtp_server, settings):
    newsletter, _ = readers
    settings.PLANS = {**settings.PLANS, "trial": {**settings.PLANS["trial"], "emails_per_month": 4}}
    first = make_post(tenant, title="One")
    assert api.post(f"/api/posts/{first.id}/send", {"newsletterId": str(newsletter.id)}).status_code == 202
    run_sends()
    usage = {row["limit"]: row for row in api.get("/api/usage").json()["limits"]}
    assert usage["emails_per_month"]["used"] == 3
    second = make_post(tenant, title="Two")
    refused = api.post(f"/api/posts/{second.id}/send", {"newsletterId": str(newsletter.id)})
    assert refused.status_code == 403, refused.content
    assert refused.json()["code"] == "plan_limit" and refused.json()["limit"] == "emails_per_month"
    assert "a month" in refused.json()["message"]
    with schema_context(tenant.schema_name):
        assert not Send.objects.filter(post=second).exists()
    assert len(smtp_server.messages) == 3


def test_a_scheduled_post_is_sent_when_it_is_published(api, tenant, readers, smtp_server):
    from apps.content.services import publish_due_posts

    newsletter, _ = readers
    post = make_post(tenant, status="draft", publish_scheduled=True,
                     scheduled_publish_date=timezone.now() - timezone.timedelta(minutes=1))
    reply = api.post(f"/api/posts/{post.id}/send", {"newsletterId": str(newsletter.id)})
    assert reply.status_code == 202 and reply.json()["send"]["status"] == "scheduled"
    assert run_sends() == 0
    with schema_context(tenant.schema_name):
        publish_due_posts()
    assert run_sends() == 1
    assert len(smtp_server.wait_for(3)) == 3


def test_a_test_email_goes_to_the_signed_in_user_only(api, admin, tenant, readers, smtp_server):
    newsletter, _ = readers
    post = make_post(tenant, title="Draft idea", status="draft")
    reply = api.post(f"/api/posts/{post.id}/send/test", {"newsletterId": str(newsletter.id)})
    assert reply.status_code == 202, reply.content
    run_outbox("newsletters.send_test")
    [message] = smtp_server.wait_for(1)
    assert str(message["To"]) == admin.email and str(message["Subject"]) == "[Test] Draft idea"
    with schema_context(tenant.schema_name):
        assert not Send.objects.exists()


def test_another_companys_post_newsletter_and_send_are_not_found(api, tenant, other_tenant, readers):
    newsletter, _ = readers
    theirs = factories.default_newsletter(other_tenant)
    their_post = make_post(other_tenant)
    mine = make_post(tenant)
    assert api.post(f"/api/posts/{their_post.id}/send", {"newsletterId": str(newsletter.id)}).status_code == 404
    assert api.post(f"/api/posts/{mine.id}/send", {"newsletterId": str(theirs.id)}).status_code == 404
    assert api.get(f"/api/posts/{mine.id}/send/recipients", {"newsletterId": str(theirs.id)}).status_code == 404
    assert api.get(f"/api/newsletters/{theirs.id}").status_code == 404


@pytest.mark.parametrize("role", ["viewer", "author"])
def test_viewers_and_authors_do_not_send(tenant, readers, role):
    from apps.core.testing import create_user

    newsletter, _ = readers
    post = make_post(tenant)
    client = Api(tenant, user=create_user(tenant, role))
    assert client.get("/api/newsletters").status_code == 200
    reply = client.post(f"/api/posts/{post.id}/send", {"newsletterId": str(newsletter.id)})
    assert reply.status_code == 403 and reply.json()["message"] == "Only editors and administrators can send posts by email"


def test_a_member_deleted_meanwhile_is_not_emailed(api, tenant, readers, smtp_server):
    newsletter, members = readers
    post = make_post(tenant)
    send_id = api.post(f"/api/posts/{post.id}/send", {"newsletterId": str(newsletter.id)}).json()["send"]["id"]
    with schema_context(tenant.schema_name):
        from apps.newsletters.delivery import send_prepare

        send_prepare(Send.objects.get(pk=send_id))
        Member.objects.filter(pk=members[1].pk).delete()
    run_sends()
    assert sorted(str(m["To"]) for m in smtp_server.wait_for(2)) == ["r0@example.com", "r2@example.com"]
    report = api.get(f"/api/newsletters/sends/{send_id}").json()
    assert report["counts"]["delivered"] == 2 and report["counts"]["skipped"] == 1
