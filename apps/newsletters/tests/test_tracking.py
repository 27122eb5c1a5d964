"""Opens and clicks of newsletter emails (docs/newsletters.md#opens-and-clicks): off unless an admin
turns them on; a send counts what it tracked when it started. Real sends through the tests' SMTP
server; the pixel and links of the received emails requested on the company host: each member
counted once (with a count of hits), the redirect to the send's own link, forged tokens and another
company's counting nothing, the report's counts; two hits at once never fail."""
from __future__ import annotations

import re
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest
from django.db import connection, connections
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.core.mailcatcher import parts
from apps.core.testing import Api, create_user
from apps.members.tests import factories
from apps.members.tokens import TRACKING_TOKEN_LENGTH, tracking_token
from apps.newsletters import rendering, sending, tracking
from apps.newsletters.models import Engagement, Send, SendLink
from apps.newsletters.tests.helpers import post as make_post, run_sends
from tenants.models import Client

TARGET = "https://example.org/read?a=1&b=2"
CONTENT = (f'<p>Hello <a href="{TARGET.replace("&", "&amp;")}">readers</a>, write to '
           '<a href="mailto:hi@example.org">us</a> or see <a href="/about">about</a>.</p>'
           f'<p>Again: <a href="{TARGET.replace("&", "&amp;")}">the same page</a></p>')
PIXEL = re.compile(r'<img src="(http://[^"]+/email/open/[^"]+)" width="1" height="1"')
CLICK = re.compile(r'href="(http://[^"]+/email/click/[^"]+)"')


@pytest.fixture
def readers(tenant):
    newsletter = factories.default_newsletter(tenant)
    members = [factories.member(tenant, email=f"t{n}@example.com") for n in range(2)]
    Client.objects.filter(pk=tenant.pk).update(website_url="https://blog.example.com")
    return newsletter, members


def _send(api, tenant, newsletter, smtp_server, count: int = 2) -> tuple[str, dict]:
    """A post sent to the newsletter; its id, and each member's received email by address."""
    post = make_post(tenant, title="Tracked issue", content=CONTENT)
    reply = api.post(f"/api/posts/{post.id}/send", {"newsletterId": str(newsletter.id)})
    assert reply.status_code == 202, reply.content
    assert run_sends() == 1
    return reply.json()["send"]["id"], {str(m["To"]): m for m in smtp_server.wait_for(count)}


def _path(url: str) -> str:
    return urlsplit(url).path


def _rows(tenant, send_id) -> list[tuple]:
    with schema_context(tenant.schema_name):
        return sorted(Engagement.objects.filter(send_id=send_id).values_list("member__email", "kind", "link", "count"))


def _track(api, opens=True, clicks=True):
    reply = api.put("/api/newsletters/settings", {"trackOpens": opens, "trackClicks": clicks})
    assert reply.status_code == 200, reply.content
    return reply.json()


def test_off_by_default_the_email_has_no_pixel_nor_rewritten_links_and_nothing_counts(api, tenant, readers,
                                                                                     smtp_server):
    newsletter, members = readers
    settings_reply = api.get("/api/newsletters/settings")
    assert settings_reply.status_code == 200
    assert settings_reply.json()["settings"] == {"trackOpens": False, "trackClicks": False}
    send_id, emails = _send(api, tenant, newsletter, smtp_server)
    for message in emails.values():
        text, html = parts(message)
        assert "/email/open/" not in html and "/email/click/" not in html and "member-tracking-" not in html
        assert f'href="{TARGET.replace("&", "&amp;")}"' in html and 'href="mailto:hi@example.org"' in html
        assert "/email/" not in text
    with schema_context(tenant.schema_name):
        send = Send.objects.get(pk=send_id)
        assert (send.track_opens, send.track_clicks) == (False, False)
        assert not SendLink.objects.filter(send=send).exists()
    # Even a correctly signed token counts nothing for a send that did not track, now or after the
    # company turns tracking on.
    _track(api)
    token = tracking_token(schema=tenant.schema_name, send_id=send_id, member_id=members[0].id)
    anon = Api(tenant)
    opened = anon.get(f"/email/open/{uuid.UUID(send_id).hex}/{token}")
    assert opened.status_code == 200 and opened["Content-Type"] == "image/gif"
    assert anon.get(f"/email/click/{uuid.UUID(send_id).hex}/1/{token}").status_code == 404  # no links
    assert _rows(tenant, send_id) == []
    report = api.get(f"/api/newsletters/sends/{send_id}").json()
    assert report["tracking"] == {"opens": False, "clicks": False}
    assert report["counts"]["opened"] is None and report["counts"]["clicked"] is None and report["links"] == []


def test_with_tracking_on_each_members_pixel_and_links_count_for_them_once_with_a_count(api, tenant, readers,
                                                                                       smtp_server):
    newsletter, members = readers
    assert _track(api)["settings"] == {"trackOpens": True, "trackClicks": True}
    send_id, emails = _send(api, tenant, newsletter, smtp_server)
    hex_id = uuid.UUID(send_id).hex
    host = f"{tenant.subdomain}.testserver.local"
    found = {}
    for address, message in emails.items():
        text, html = parts(message)
        assert "member-tracking-" not in html and "member-tracking-" not in text
        [pixel] = PIXEL.findall(html)
        assert pixel.startswith(f"http://{host}/email/open/{hex_id}/")
        assert html.index(pixel) > html.index("Manage your preferences")  # at the end of the body
        clicks = CLICK.findall(html)
        # the post's link (twice, one number), the website button; never mailto: or the member's own links
        assert len(clicks) >= 3 and 'href="mailto:hi@example.org"' in html
        assert f'href="{TARGET.replace("&", "&amp;")}"' not in html
        assert re.search(r'href="http://[^"]+/members/preferences\?token=', html)
        assert re.search(r'href="http://[^"]+/members/unsubscribe\?token=', html)
        assert TARGET in text  # the plain-text part keeps its addresses
        tokens = {_path(url).rsplit("/", 1)[1] for url in clicks + [pixel]}
        assert len(tokens) == 1 and len(tokens.pop()) == TRACKING_TOKEN_LENGTH
        found[address] = (pixel, clicks)
    ada, bob = members
    anon = Api(tenant)
    # the pixel: Ada's email opened twice, Bob's once
    for address in (ada.email, ada.email, bob.email):
        reply = anon.get(_path(found[address][0]))
        assert reply.status_code == 200 and reply["Content-Type"] == "image/gif"
        assert reply["Cache-Control"] == "private, no-store" and "Set-Cookie" not in reply
    # the links: the post's first link leads to its address, from the send's own links
    with schema_context(tenant.schema_name):
        links = dict(SendLink.objects.filter(send_id=send_id).values_list("index", "url"))
    assert TARGET in links.values() and "https://blog.example.com" in " ".join(links.values())
    assert all(url.startswith(("http://", "https://")) for url in links.values())
    target_index = next(n for n, url in links.items() if url == TARGET)
    ada_target = next(url for url in found[ada.email][1] if _path(url).split("/")[4] == str(target_index))
    bob_target = next(url for url in found[bob.email][1] if _path(url).split("/")[4] == str(target_index))
    for url in (ada_target, ada_target, bob_target):
        reply = anon.get(_path(url))
        assert reply.status_code == 302 and reply["Location"] == TARGET
        assert reply["Referrer-Policy"] == "no-referrer" and reply["Cache-Control"] == "private, no-store"
    # a HEAD (a link checker) reaches the link and counts nothing
    assert anon.http.head(_path(bob_target)).status_code == 302
    connection.set_schema_to_public()
    assert _rows(tenant, send_id) == sorted([
        ("t0@example.com", "open", 0, 2), ("t1@example.com", "open", 0, 1),
        ("t0@example.com", "click", 0, 2), ("t0@example.com", "click", target_index, 2),
        ("t1@example.com", "click", 0, 1), ("t1@example.com", "click", target_index, 1)])
    report = api.get(f"/api/newsletters/sends/{send_id}").json()
    assert report["tracking"] == {"opens": True, "clicks": True}
    assert report["counts"]["opened"] == 2 and report["counts"]["clicked"] == 2
    assert report["links"] == [{"url": TARGET, "members": 2, "clicks": 3}]
    # the slow path (the message built whole, as for an email service's API) puts the same token in
    with schema_context(tenant.schema_name):
        send = Send.objects.select_related("newsletter").get(pk=send_id)
        template = sending.Template.of(send=send, newsletter=send.newsletter, client=tenant,
                                       schema=tenant.schema_name, site_title="Site")
        whole = template.full_message(member_id=ada.id, email=ada.email)
    html = next(body for body, kind in whole.alternatives if kind == "text/html")
    assert found[ada.email][0] in html and "member-tracking-" not in html


def test_forged_tokens_and_another_companys_count_nothing_yet_a_known_link_is_reached(api, tenant, other_tenant,
                                                                                     readers, smtp_server):
    newsletter, members = readers
    _track(api)
    send_id, emails = _send(api, tenant, newsletter, smtp_server)
    hex_id = uuid.UUID(send_id).hex
    ada = members[0]
    _text, html = parts(emails[ada.email])
    pixel, click = _path(PIXEL.findall(html)[0]), _path(CLICK.findall(html)[0])
    token = pixel.rsplit("/", 1)[1]
    index = click.split("/")[4]
    forged = [token[:-1] + ("A" if token[-1] != "A" else "B"),  # a signature changed
              tracking_token(schema=tenant.schema_name, send_id=uuid.uuid4(), member_id=ada.id),  # another send's
              tracking_token(schema=other_tenant.schema_name, send_id=send_id, member_id=ada.id),  # another company's
              "x" * TRACKING_TOKEN_LENGTH, "short", token + "0"]
    anon = Api(tenant)
    for bad in forged:
        assert anon.get(f"/email/open/{hex_id}/{bad}").status_code == 200
        reply = anon.get(f"/email/click/{hex_id}/{index}/{bad}")
        assert reply.status_code == 302 and reply["Location"].startswith(("http://", "https://"))
    assert _rows(tenant, send_id) == []
    # an unknown link, another send's id, or not an id: 404, nothing counted
    for path in (f"/email/click/{hex_id}/999/{token}", f"/email/click/{hex_id}/0/{token}",
                 f"/email/click/{uuid.uuid4().hex}/{index}/{token}", f"/email/click/not-an-id/{index}/{token}"):
        assert anon.get(path).status_code == 404, path
    # the email's own addresses asked on another company's host: nothing there, nothing here
    theirs = Api(other_tenant)
    assert theirs.get(pixel).status_code == 200
    assert theirs.get(click).status_code == 404
    assert _rows(tenant, send_id) == []
    with schema_context(other_tenant.schema_name):
        assert not Engagement.objects.exists()
    # the report of this company's send is not another company's
    assert Api(other_tenant, user=create_user(other_tenant, "admin")).get(
        f"/api/newsletters/sends/{send_id}").status_code == 404
    # the genuine token still counts
    assert anon.get(pixel).status_code == 200 and [r[1] for r in _rows(tenant, send_id)] == ["open"]


def test_a_send_keeps_what_it_tracked_when_it_started(api, tenant, readers, smtp_server):
    newsletter, members = readers
    _track(api, opens=True, clicks=False)
    send_id, emails = _send(api, tenant, newsletter, smtp_server)
    _text, html = parts(emails[members[0].email])
    assert PIXEL.findall(html) and not CLICK.findall(html)
    _track(api, opens=False, clicks=True)  # later changes do not change this send
    token = PIXEL.findall(html)[0].rsplit("/", 1)[1]
    assert Api(tenant).get(_path(PIXEL.findall(html)[0])).status_code == 200
    assert Api(tenant).get(f"/email/click/{uuid.UUID(send_id).hex}/1/{token}").status_code == 404
    report = api.get(f"/api/newsletters/sends/{send_id}").json()
    assert report["tracking"] == {"opens": True, "clicks": False}
    assert report["counts"]["opened"] == 1 and report["counts"]["clicked"] is None


def test_only_admins_change_the_setting_every_role_reads_it_and_each_company_has_its_own(api, tenant, other_tenant):
    for role in ("editor", "author", "viewer"):
        client = Api(tenant, user=create_user(tenant, role))
        assert client.get("/api/newsletters/settings").json()["settings"]["trackOpens"] is False
        refused = client.put("/api/newsletters/settings", {"trackOpens": True})
        assert refused.status_code == 403, role
        assert refused.json()["message"] == "Only administrators can change whether newsletter emails count opens and clicks"
    saved = api.put("/api/newsletters/settings", {"trackOpens": True})
    assert saved.status_code == 200 and saved.json()["message"] == "Newsletter settings saved"
    assert saved.json()["settings"] == {"trackOpens": True, "trackClicks": False}
    assert api.put("/api/newsletters/settings", {"trackClicks": True}).json()["settings"] == {
        "trackOpens": True, "trackClicks": True}
    assert api.put("/api/newsletters/settings", {"trackOpens": "maybe"}).status_code == 400
    # JSON true or false only: 0, 1 or "false" would be read as a choice nobody made.
    for value in (0, 1, "false"):
        refused = api.put("/api/newsletters/settings", {"trackOpens": None, "trackClicks": value})
        assert refused.status_code == 400, value
        assert refused.json()["message"] == "Track clicks must be true or false"
    assert api.get("/api/newsletters/settings").json()["settings"] == {"trackOpens": True, "trackClicks": True}
    theirs = Api(other_tenant, user=create_user(other_tenant, "admin"))
    assert theirs.get("/api/newsletters/settings").json()["settings"] == {"trackOpens": False, "trackClicks": False}
    audit = api.get("/api/audit").json()
    assert any("opens counted, clicks counted" in str(entry) for entry in audit["entries"])


def test_links_are_rewritten_but_not_mailto_nor_the_members_own_links():
    markers = rendering.Markers.of(uuid.uuid4())
    html = (f'<a href="https://a.example/x?y=1&amp;z=2">1</a><a class="b" href="http://b.example/">2</a>'
            f'<a href="mailto:x@example.org">3</a><a href="{markers.preferences}">4</a>'
            f'<a href="{markers.unsubscribe}">5</a><a href="https://a.example/x?y=1&amp;z=2">6</a>'
            f'<a data-href="https://c.example/" name="n">7</a><a href="#top">8</a></body>')
    out, urls = tracking.rewrite_links(html, base_url="http://co.example", send_id="ab", markers=markers)
    assert urls == ["https://a.example/x?y=1&z=2", "http://b.example/"]
    assert out.count(f'href="http://co.example/email/click/ab/1/{markers.tracking}"') == 2
    assert f'class="b" href="http://co.example/email/click/ab/2/{markers.tracking}"' in out
    for kept in ('href="mailto:x@example.org"', f'href="{markers.preferences}"', f'href="{markers.unsubscribe}"',
                 'data-href="https://c.example/"', 'href="#top"'):
        assert kept in out
    assert len(markers.tracking) == TRACKING_TOKEN_LENGTH
    assert len(tracking_token(schema="s", send_id=uuid.uuid4(), member_id=uuid.uuid4())) == TRACKING_TOKEN_LENGTH


@pytest.mark.django_db(transaction=True)
def test_two_hits_at_once_are_both_counted_never_an_error(make_tenant):
    tenant = make_tenant()
    member = factories.member(tenant, email="both@example.com")
    newsletter = factories.default_newsletter(tenant)
    with schema_context(tenant.schema_name):
        send = Send.objects.create(newsletter=newsletter, subject="S", status="sent", track_opens=True,
                                   track_clicks=True, started_at=timezone.now())
        SendLink.objects.create(send=send, index=1, url=TARGET)
    token = tracking_token(schema=tenant.schema_name, send_id=send.pk, member_id=member.pk)
    paths = {"open": f"/email/open/{send.pk.hex}/{token}", "click": f"/email/click/{send.pk.hex}/1/{token}"}
    for kind, path in paths.items():
        barrier = threading.Barrier(2)

        def hit(_n, path=path, barrier=barrier):
            try:
                client = Api(tenant)
                barrier.wait()
                return client.get(path).status_code
            finally:
                connections.close_all()

        with ThreadPoolExecutor(2) as pool:
            statuses = list(pool.map(hit, range(2)))
        assert statuses == [200, 200] if kind == "open" else statuses == [302, 302], statuses
    assert _rows(tenant, send.pk) == [("both@example.com", "click", 0, 2), ("both@example.com", "click", 1, 2),
                                      ("both@example.com", "open", 0, 2)]


def test_a_members_hits_past_the_rate_count_nothing_more_and_still_answer(api, tenant, readers, smtp_server, settings):
    """A leaked or replayed address cannot turn into a stream of writes: one member's opens (and
    clicks) of one send are counted up to NEWSLETTER_TRACKING_RATE, then the reader still gets the
    image and reaches the link, and nothing more is counted; another member is counted as before."""
    settings.NEWSLETTER_TRACKING_RATE = "3/hour"
    newsletter, members = readers
    _track(api)
    send_id, emails = _send(api, tenant, newsletter, smtp_server)
    ada, bob = members
    anon = Api(tenant)
    ada_html, bob_html = parts(emails[ada.email])[1], parts(emails[bob.email])[1]
    [ada_pixel], [bob_pixel] = PIXEL.findall(ada_html), PIXEL.findall(bob_html)
    ada_click = next(url for url in CLICK.findall(ada_html))
    for _ in range(5):
        reply = anon.get(_path(ada_pixel))
        assert reply.status_code == 200 and reply["Content-Type"] == "image/gif"
        reply = anon.get(_path(ada_click))
        assert reply.status_code == 302 and reply["Location"].startswith(("http://", "https://"))
    assert anon.get(_path(bob_pixel)).status_code == 200
    connection.set_schema_to_public()
    counts = {(email, kind, link): count for email, kind, link, count in _rows(tenant, send_id)}
    assert counts[(ada.email, "open", 0)] == 3 and counts[(ada.email, "click", 0)] == 3
    assert counts[(bob.email, "open", 0)] == 1


def test_turning_counting_on_leaves_the_companys_cached_public_replies_alone(api, tenant,
                                                                            django_capture_on_commit_callbacks):
    """No public reply shows whether emails count opens: saving the setting is audited but does not
    make every cached reply of the company stale (a site setting, which replies show, does)."""
    from apps.core.content_version import content_version_get
    from apps.site.services import site_settings_update

    before = content_version_get(tenant.schema_name)
    with django_capture_on_commit_callbacks(execute=True):
        assert _track(api, opens=True, clicks=True)["settings"] == {"trackOpens": True, "trackClicks": True}
    assert content_version_get(tenant.schema_name) == before
    with django_capture_on_commit_callbacks(execute=True), schema_context(tenant.schema_name):
        site_settings_update(client=tenant, title="A new site title")
    assert content_version_get(tenant.schema_name) != before
