"""Readers joining from the company's website: the public subscribe call (the content key, the
Origin, the same reply for every address, the throttles, the honeypot), the double opt-in link and
its page, the preferences page in the company's language, RFC 8058 one-click unsubscribe, forged,
reused and other companies' links."""
from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django_tenants.utils import schema_context

from apps.core.testing import Api
from apps.members import signup, tokens
from apps.members.models import Member
from apps.members.tests import factories
from apps.members.tests.helpers import emails, link_in, outbox_count, path_of, run_outbox, token_of
from tenants.models import Client

WEBSITE = "https://blog.example.com"


@pytest.fixture
def site(tenant):
    Client.objects.filter(pk=tenant.pk).update(website_url=WEBSITE + "/")
    tenant.refresh_from_db()
    return tenant


def public(tenant, **headers):
    return Api(tenant, headers={"x-api-key": tenant.api_key, **headers})


def subscribe(tenant, body: dict, origin: str | None = WEBSITE, **environ):
    headers = {"Origin": origin} if origin else {}
    return public(tenant, **headers).post("/api/v1/members/subscribe", body, **environ)


def confirm_link(email: str) -> str:
    run_outbox(signup.SUBSCRIBE_TASK)
    [message] = emails("member_confirm", email)
    return link_in(message)


def test_a_reader_subscribes_and_confirms_by_the_emailed_link(site):
    weekly = factories.newsletter(site, "Weekly", default_on_signup=False)
    reply = subscribe(site, {"email": "Reader@Example.com", "name": "Ada", "newsletters": [str(weekly.id)]},
                      REMOTE_ADDR="203.0.113.7")
    assert reply.status_code == 202, reply.content
    assert reply.json() == {"success": True, "message": signup.SUBSCRIBE_REPLY}
    assert reply["Access-Control-Allow-Origin"] in (WEBSITE, "*")  # CORS as for the rest of the public API
    with schema_context(site.schema_name):
        assert not Member.objects.exists()  # nothing until the link is opened
    link = confirm_link("reader@example.com")
    assert link.startswith(f"http://{site.subdomain}.testserver.local/members/confirm?token=")
    [message] = emails("member_confirm")
    assert "Weekly" in message.text and message.schema_name == site.schema_name
    page = Api(site).get(path_of(link), REMOTE_ADDR="198.51.100.9")
    assert page.status_code == 200 and "You&#x27;re subscribed" in page.content.decode()
    assert page["Content-Security-Policy"].startswith("default-src 'none'")
    with schema_context(site.schema_name):
        member = Member.objects.get()
        assert member.email == "reader@example.com" and member.name == "Ada" and member.source == "website"
        assert member.consent_at is not None and member.consent_ip == "198.51.100.9"
        assert [n.name for n in member.newsletters.all()] == ["Weekly"]


def test_a_confirmation_link_works_once(site):
    subscribe(site, {"email": "reader@example.com"})
    link = confirm_link("reader@example.com")
    assert Api(site).get(path_of(link)).status_code == 200
    with schema_context(site.schema_name):
        member = Member.objects.get()
        member.newsletters.clear()  # the reader unsubscribes later
    again = Api(site).get(path_of(link))
    assert again.status_code == 200 and "Already confirmed" in again.content.decode()
    with schema_context(site.schema_name):
        assert not member.newsletters.exists()  # a reused link subscribes nobody again


def test_forged_and_other_companies_confirmation_links_are_refused(site, other_tenant):
    subscribe(site, {"email": "reader@example.com"})
    link = confirm_link("reader@example.com")
    token = token_of(link)
    for bad in (token[:-2] + "xx", "", "not-a-token", "a" * 5000):
        assert Api(site).get("/members/confirm", {"token": bad}).status_code == 400
    assert Api(other_tenant).get(path_of(link)).status_code == 400
    with schema_context(other_tenant.schema_name):
        assert not Member.objects.exists()
    with schema_context(site.schema_name):
        assert not Member.objects.exists()


def test_the_same_reply_and_the_same_work_for_known_and_unknown_addresses(site):
    factories.member(site, email="known@example.com")

    def call(email):
        with CaptureQueriesContext(connection) as queries:
            reply = subscribe(site, {"email": email})
        return reply, len(queries)

    known, known_queries = call("known@example.com")
    unknown, unknown_queries = call("unknown@example.com")
    assert known.status_code == unknown.status_code == 202
    assert known.content == unknown.content and known_queries == unknown_queries
    assert outbox_count(signup.SUBSCRIBE_TASK) == 2
    for path in ("/api/v1/members/signin",):
        replies = [public(site, Origin=WEBSITE).post(path, {"email": e}) for e in ("known@example.com", "x@example.com")]
        assert replies[0].status_code == replies[1].status_code == 202 and replies[0].content == replies[1].content


def test_an_address_whose_emails_bounced_gets_no_confirmation(site):
    factories.member(site, email="bounced@example.com", email_disabled=True, email_disabled_reason="bounced")
    assert subscribe(site, {"email": "bounced@example.com"}).status_code == 202
    run_outbox(signup.SUBSCRIBE_TASK)
    assert emails("member_confirm") == []


@pytest.mark.parametrize("origin", ["https://evil.example", "https://blog.example.com.evil.example", "null",
                                    "http://blog.example.com"])
def test_a_form_on_another_site_is_refused(site, origin):
    reply = subscribe(site, {"email": "reader@example.com"}, origin=origin)
    assert reply.status_code == 403 and reply.json()["code"] == "origin_not_allowed"
    assert outbox_count(signup.SUBSCRIBE_TASK) == 0


def test_the_website_the_company_host_and_servers_may_subscribe(site):
    assert subscribe(site, {"email": "a@example.com"}, origin=WEBSITE).status_code == 202
    assert subscribe(site, {"email": "b@example.com"}, origin=f"http://{site.subdomain}.testserver.local").status_code == 202
    assert subscribe(site, {"email": "c@example.com"}, origin=None).status_code == 202  # a server: no Origin


def test_the_key_is_required_and_another_companys_key_is_refused(site, other_tenant):
    assert Api(site).post("/api/v1/members/subscribe", {"email": "a@example.com"}).status_code == 401
    theirs = Api(site, headers={"x-api-key": other_tenant.api_key, "Origin": WEBSITE})
    assert theirs.post("/api/v1/members/subscribe", {"email": "a@example.com"}).status_code == 401


@pytest.mark.parametrize("body", [{"email": "nope"}, {"email": ["a@example.com"]}, {"email": "a@example.com",
                                  "newsletters": ["x"]}, {"email": "a@example.com", "name": "n" * 500},
                                  {"email": "a\u0000@example.com"}, {"email": "a@example.com", "honeypot": {"x": 1}},
                                  {"email": "a" * 64 + "@" + ".".join(["b" * 60] * 4) + ".com"}])  # over 254
def test_hostile_bodies_are_400(site, body):
    reply = subscribe(site, body)
    assert reply.status_code == 400, reply.content


def test_another_companys_newsletter_is_refused(site, other_tenant):
    theirs = factories.default_newsletter(other_tenant)
    assert subscribe(site, {"email": "a@example.com", "newsletters": [str(theirs.id)]}).status_code == 400


def test_a_filled_honeypot_gets_the_same_reply_and_nothing_else(site):
    reply = subscribe(site, {"email": "bot@example.com", "honeypot": "http://spam.example"})
    assert reply.status_code == 202 and reply.json()["message"] == signup.SUBSCRIBE_REPLY
    assert outbox_count(signup.SUBSCRIBE_TASK) == 0


def test_floods_are_throttled_per_address_client_and_company(site, settings):
    settings.MEMBERS_SUBSCRIBE_RATE_PER_EMAIL = "2/hour"
    settings.MEMBERS_SUBSCRIBE_RATE_PER_IP = "4/hour"
    settings.MEMBERS_SUBSCRIBE_RATE_PER_COMPANY = "6/hour"
    for _ in range(2):
        assert subscribe(site, {"email": "same@example.com"}).status_code == 202
    refused = subscribe(site, {"email": "same@example.com"}, REMOTE_ADDR="10.0.0.2")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0  # the address, from anywhere
    assert [subscribe(site, {"email": f"n{i}@example.com"}).status_code for i in range(3)] == [202, 202, 429]
    codes = [subscribe(site, {"email": f"m{i}@example.com"}, REMOTE_ADDR=f"10.0.1.{i}").status_code for i in range(4)]
    assert codes == [202, 202, 429, 429]  # the company's ceiling, whatever the client
    assert outbox_count(signup.SUBSCRIBE_TASK) == 6


def _member_token(tenant, member, newsletter=None) -> str:
    with schema_context(tenant.schema_name):
        return tokens.preferences_token(member.pk, newsletter.pk if newsletter else None)


def test_the_preferences_page_lists_the_newsletters_and_saves_them(site):
    weekly = factories.newsletter(site, "Weekly", default_on_signup=False, description="Every Friday")
    member = factories.member(site, email="ada@example.com")
    token = _member_token(site, member)
    page = Api(site).get("/members/preferences", {"token": token})
    html = page.content.decode()
    assert page.status_code == 200 and '<html lang="en">' in html and "Your email preferences" in html
    assert html.count('type="checkbox"') == 2 and "Every Friday" in html
    assert f'value="{weekly.id}">' in html  # not ticked
    saved = Api(site).post(f"/members/preferences?token={token}", f"newsletters={weekly.id}",
                           content_type="application/x-www-form-urlencoded")
    assert saved.status_code == 200 and "Your preferences are saved." in saved.content.decode()
    with schema_context(site.schema_name):
        assert [n.name for n in Member.objects.get(pk=member.pk).newsletters.all()] == ["Weekly"]
    gone = Api(site).post(f"/members/preferences?token={token}", "unsubscribe=all",
                          content_type="application/x-www-form-urlencoded")
    assert gone.status_code == 200 and "unsubscribed" in gone.content.decode()
    with schema_context(site.schema_name):
        assert not Member.objects.get(pk=member.pk).newsletters.exists()


def test_the_preferences_page_speaks_the_companys_language_with_english_for_others(site):
    member = factories.member(site)
    token = _member_token(site, member)
    Client.objects.filter(pk=site.pk).update(default_language="fr-CA", languages=["fr-CA", "en"])
    html = Api(site).get("/members/preferences", {"token": token}).content.decode()
    assert '<html lang="fr">' in html and "Vos préférences" in html and "Se désabonner de tout" in html
    Client.objects.filter(pk=site.pk).update(default_language="ja", languages=["ja"])
    html = Api(site).get("/members/preferences", {"token": token}).content.decode()
    assert '<html lang="en">' in html and "Your email preferences" in html


def test_the_members_pages_style_every_class_they_use(site):
    """The page's own style sheet defines each class its markup names: the newsletters' legend is for
    screen readers only (it repeats the heading), not a second title on the page."""
    factories.newsletter(site, "Weekly", default_on_signup=False)
    member = factories.member(site)
    html = Api(site).get("/members/preferences", {"token": _member_token(site, member)}).content.decode()
    style = re.search(r"<style>(.*?)</style>", html, re.S).group(1)
    used = {name for value in re.findall(r'class="([^"]*)"', html) for name in value.split()}
    assert "visually-hidden" in used
    unstyled = sorted(name for name in used if not re.search(rf"\.{re.escape(name)}(?![\w-])", style))
    assert unstyled == [], unstyled


def test_the_preferences_page_says_when_the_member_is_subscribed_to_nothing(site):
    """After a mail app's one-click unsubscribe, the email's links open a page that says the reader
    gets nothing any more, in the company's language."""
    weekly = factories.newsletter(site, "Weekly", default_on_signup=False)
    member = factories.member(site, email="ada@example.com", newsletters=[weekly])
    token = _member_token(site, member, weekly)

    def page() -> str:
        reply = Api(site).get("/members/unsubscribe", {"token": token})
        assert reply.status_code == 200
        return reply.content.decode()

    assert "not subscribed to any newsletter" not in page() and " checked>" in page()
    Api(site).post(f"/members/unsubscribe?token={token}", "List-Unsubscribe=One-Click",
                   content_type="application/x-www-form-urlencoded")
    html = page()
    assert "ada@example.com is not subscribed to any newsletter." in html and " checked>" not in html
    assert "Unsubscribe from all" in html  # the form stays: ticking a newsletter subscribes again
    Client.objects.filter(pk=site.pk).update(default_language="fr", languages=["fr"])
    assert "ada@example.com n&#x27;est abonné à aucune newsletter." in page()


def test_one_click_unsubscribe_takes_the_member_off_that_newsletter(site):
    weekly = factories.newsletter(site, "Weekly")
    member = factories.member(site)
    token = _member_token(site, member, weekly)
    reply = Api(site).post(f"/members/unsubscribe?token={token}", "List-Unsubscribe=One-Click",
                           content_type="application/x-www-form-urlencoded")
    assert reply.status_code == 200
    with schema_context(site.schema_name):
        assert [n.name for n in Member.objects.get(pk=member.pk).newsletters.all()] == ["Newsletter"]
    again = Api(site).post(f"/members/unsubscribe?token={token}", "List-Unsubscribe=One-Click",
                           content_type="application/x-www-form-urlencoded")
    assert again.status_code == 200  # a second click changes nothing and is no error
    assert Api(site).get("/members/unsubscribe", {"token": token}).status_code == 200  # the page, no change


def test_forged_gone_and_other_companies_unsubscribe_links(site, other_tenant):
    member = factories.member(site)
    token = _member_token(site, member)
    form = {"data": "List-Unsubscribe=One-Click", "content_type": "application/x-www-form-urlencoded"}
    assert Api(site).post(f"/members/unsubscribe?token={token[:-3]}abc", **form).status_code == 400
    assert Api(other_tenant).post(f"/members/unsubscribe?token={token}", **form).status_code == 400
    assert Api(other_tenant).get("/members/preferences", {"token": token}).status_code == 400
    with schema_context(site.schema_name):
        assert Member.objects.get(pk=member.pk).newsletters.exists()
        Member.objects.filter(pk=member.pk).delete()
    assert Api(site).post(f"/members/unsubscribe?token={token}", **form).status_code == 404
    # a sign-in or session token is no preferences link
    with schema_context(site.schema_name):
        other = factories.member(site)
        session, _ = tokens.session_token(other)
    assert Api(site).get("/members/preferences", {"token": session}).status_code == 400
