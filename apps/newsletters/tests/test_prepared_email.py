"""A send's email built once over SMTP (apps.newsletters.sending.Prepared): each member's bytes are the
prepared bytes with the member's values put in, and they must be the email Django would have built
for that member (every header but Date, every part's content), for ASCII addresses, long and
non-ASCII names, non-ASCII posts, long lines and `<pre>`; a real SMTP server receives each member's
own links, unsubscribe headers and Message-ID. Addresses that are not plain ASCII, parts that cannot
be 8bit and the providers' API backends get the full message."""
from __future__ import annotations

import email
import email.policy
import re
import uuid
from email.utils import parsedate_to_datetime
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core.mail.message import sanitize_address
from django_tenants.utils import schema_context

from apps.core.mailcatcher import parts
from apps.members.tests import factories
from apps.members.tokens import preferences_read
from apps.newsletters import rendering, sending
from apps.newsletters.models import Send
from apps.newsletters.tests.helpers import post as make_post, run_sends
from apps.site.selectors import site_view
from tenants.models import Client

SMTP = "django.core.mail.backends.smtp.EmailBackend"
LONG_PARAGRAPH = "<p>" + " ".join(f"word{n}" for n in range(600)) + "</p>"  # one line of about 4,300 bytes
PRE = "<pre>def f():\n    return  1   # spaces kept\n\n  indented line</pre>"
CASES = {
    "plain": {"content": "<p>Hello readers</p>"},
    "non-ascii": {"title": "Ça marche — 東京 ✓", "content": "<p>Grüße aus Köln, ça va? 東京の春 ✓ " * 40 + "</p>"},
    "long line": {"content": LONG_PARAGRAPH + "<p>" + "é" * 300 + " " + "ü" * 300 + "</p>"},
    "pre": {"content": PRE + LONG_PARAGRAPH},
    "long names": {"content": "<p>Hello</p>", "title": "A subject " * 33,
                   "sender": "Ada Lovelace and the Analytical Engine Society of London, " * 3,
                   "newsletter": "The Very Long Weekly Letter of Everything That Happened " * 3},
    "non-ascii names": {"content": "<p>Hello</p>", "title": "Première édition", "sender": "Zoë Ørsted — Équipe",
                        "newsletter": "Lettre d'été"},
}
ADDRESSES = ["ada@example.com", "a.very.long.address.of.someone+newsletters@mail.subdomain.example.org",
             "o'brien_99@example.co.uk"]


def _template(tenant, *, content: str, title: str = "Spring issue", sender: str = "", newsletter: str = ""):
    """The send's Template as delivery.send_deliver makes it (the post rendered as send_prepare does)."""
    Client.objects.filter(pk=tenant.pk).update(website_url="https://blog.example.com")
    tenant.refresh_from_db()
    letter = factories.default_newsletter(tenant)
    with schema_context(tenant.schema_name):
        if sender or newsletter:
            letter.sender_name, letter.name = sender[:191], (newsletter or letter.name)[:191]
            letter.reply_to = "editor@example.com"
            letter.save()
    post = make_post(tenant, title=title, content=content)
    with schema_context(tenant.schema_name):
        send = Send(id=uuid.uuid4(), newsletter=letter, subject="")
        rendered = rendering.render(post=post, newsletter=letter, client=tenant, markers=rendering.Markers.of(send.id))
        send.subject, send.html, send.text = rendered.subject, rendered.html, rendered.text
        return sending.Template.of(send=send, newsletter=letter, client=tenant, schema=tenant.schema_name,
                                   site_title=site_view(tenant).title)


def _parsed(data: bytes):
    """(headers without Date, the multipart's boundary left out; [(type, params, decoded payload)]; Date)."""
    message = email.message_from_bytes(data)
    headers = []
    for name, value in message.items():
        if name.lower() == "content-type":
            value = re.sub(r';\s*boundary="[^"]*"', "", value)
        if name.lower() != "date":
            headers.append((name, value))
    leaves = [(part.get_content_type(), sorted(part.get_params() or []), dict(part.items()),
               part.get_payload(decode=True)) for part in message.walk() if not part.is_multipart()]
    return headers, leaves, parsedate_to_datetime(message["Date"])


@pytest.mark.parametrize("case", list(CASES))
def test_each_members_prepared_bytes_are_the_full_message(tenant, settings, case):
    settings.EMAIL_BACKEND, settings.NEWSLETTER_EMAIL_BACKEND = SMTP, ""
    template = _template(tenant, **CASES[case])
    assert template.prepared is not None, "the parts can be sent 8bit"
    with schema_context(tenant.schema_name):
        for address in ADDRESSES:
            member_id = uuid.uuid4()
            links = template.links(member_id)
            fast = template.prepared.message(email=address, links=links)
            assert isinstance(fast, sending.PreparedMessage)
            full = template.full_message(member_id=member_id, email=address, links=links)
            full_bytes = full.message().as_bytes(linesep="\r\n")
            fast_bytes = fast.message().as_bytes(linesep="\r\n")
            fast_headers, fast_parts, fast_date = _parsed(fast_bytes)
            full_headers, full_parts, full_date = _parsed(full_bytes)
            assert fast_headers == full_headers
            assert fast_parts == full_parts
            assert abs((fast_date - full_date).total_seconds()) <= 2
            for _type, _params, part_headers, _payload in full_parts:
                assert part_headers["Content-Transfer-Encoding"] in ("7bit", "8bit")
            # what Django's SMTP backend reads of a message: the same envelope once sanitised
            assert [sanitize_address(a, "utf-8") for a in fast.recipients()] == [
                sanitize_address(a, "utf-8") for a in full.recipients()] == [address]
            assert sanitize_address(fast.from_email, "utf-8") == sanitize_address(full.from_email, "utf-8")
            assert fast.to == full.to == [address]
            text, html = parts(email.message_from_bytes(fast_bytes, policy=email.policy.default))
            preferences, one_click, identifier, _ = links
            assert preferences in text and one_click in text and one_click in html
            assert preferences_read(parse_qs(urlsplit(one_click).query)["token"][0]) == (
                str(member_id), str(template.newsletter_id))
            assert fast_bytes.count(b"\r\nMessage-ID: " + identifier.encode() + b"\r\n") == 1


def test_long_lines_are_wrapped_without_changing_what_shows(tenant, settings):
    settings.EMAIL_BACKEND, settings.NEWSLETTER_EMAIL_BACKEND = SMTP, ""
    template = _template(tenant, **CASES["pre"])
    for part in (template.html, template.text):
        assert max(len(line.encode()) for line in part.split("\n")) <= rendering.WRAP_BYTES
    # the <pre> keeps its lines and spaces; the paragraph's words are all there, in order
    assert PRE.removeprefix("<pre>") in template.html and re.search(r"<pre[ >]", template.html)
    words = re.sub(r"\s+", " ", rendering.html_to_plain(template.html))
    assert " ".join(f"word{n}" for n in range(600)) in words
    # the plain-text part is format=flowed: joining its soft breaks gives the paragraph back
    assert rendering.is_flowed(template.text)
    unflowed = re.sub(r" \n", " ", template.text)
    assert " ".join(f"word{n}" for n in range(600)) in unflowed
    mime = template.full_message(member_id=uuid.uuid4(), email="ada@example.com").message()
    plain = next(part for part in mime.walk() if part.get_content_type() == "text/plain")
    assert plain.get_param("format") == "flowed"


def test_html_wrapping_breaks_only_where_it_shows_nothing():
    html = ('<p style="white-space: pre-wrap">' + "kept  " * 200 + '</p><div><a href="https://x.example/a b" '
            'title="' + "t " * 300 + '">' + "link text " * 100 + "</a></div><style>" + "p { a: b } " * 60
            + "</style><!-- " + "c " * 600 + "--><pre>" + "x y " * 300 + "</pre>")
    wrapped = rendering.wrap_html(html, 80)
    assert wrapped.replace("\n", " ") == html  # only spaces became line breaks
    assert "kept  " * 200 + "</p>" in wrapped and "x y " * 300 + "</pre>" in wrapped  # preserving elements
    assert 'href="https://x.example/a b"' in wrapped and 'title="' + "t " * 300 + '"' in wrapped  # attribute values
    assert "<!-- " + "c " * 600 + "-->" in wrapped and "<style>" + "p { a: b } " * 60 + "</style>" in wrapped
    assert "link\ntext" in wrapped or "text\nlink" in wrapped  # text is broken
    assert max(len(line) for line in wrapped.split("\n") if "kept" not in line and "c c" not in line
               and "t t" not in line and "a: b" not in line and "x y" not in line) <= 80
    short = "<p>short</p>\n<p>lines</p>"
    assert rendering.wrap_html(short) == short


def test_text_wrapping_is_flowed_and_space_stuffed():
    text = "Title\n\n" + "word " * 300 + "\n>quoted\nFrom here\n-- \nfooter  \n"
    wrapped = rendering.wrap_text(text, 80)
    lines = wrapped.split("\n")
    assert all(len(line) <= 80 for line in lines)
    assert " >quoted" in lines and " From here" in lines and "-- " in lines and "footer" in lines
    # read as RFC 3676 says: unstuff, then join the soft breaks
    joined = re.sub(r" \n", " ", "\n".join(line[1:] if line.startswith(" ") else line for line in lines))
    assert ("word " * 300).rstrip() in joined
    assert rendering.wrap_text("short\n-- \nfooter  \n") == "short\n-- \nfooter\n"
    assert not rendering.is_flowed("short\n-- \nfooter\n")


def test_a_line_that_cannot_be_broken_sends_the_full_message(tenant, settings):
    settings.EMAIL_BACKEND, settings.NEWSLETTER_EMAIL_BACKEND = SMTP, ""
    template = _template(tenant, content="<pre>" + "x" * 1200 + "</pre>")
    assert template.prepared is None  # the HTML part is quoted-printable
    with schema_context(tenant.schema_name):
        message = template.message(member_id=uuid.uuid4(), email="ada@example.com")
    assert isinstance(message, sending.NewsletterMessage)


@pytest.mark.parametrize("address", ["jöhn@example.com", "ada@exämple.com", '"Ada L"@example.com',
                                     "Ada <ada@example.com>"])
def test_an_address_that_is_not_plain_ascii_gets_the_full_message(tenant, settings, address):
    settings.EMAIL_BACKEND, settings.NEWSLETTER_EMAIL_BACKEND = SMTP, ""
    template = _template(tenant, content="<p>Hello</p>")
    with schema_context(tenant.schema_name):
        message = template.message(member_id=uuid.uuid4(), email=address)
        assert isinstance(message, sending.NewsletterMessage)
        assert isinstance(template.message(member_id=uuid.uuid4(), email="ada@example.com"), sending.PreparedMessage)


def test_a_prepared_email_reaches_the_server_as_djangos_smtp_backend_sends_it(tenant, smtp_server):
    """sending.send hands a prepared email to the SMTP connection itself: the server gets the same
    envelope and the same bytes as from the backend's send_messages; a full message, or a backend
    that sends its own way, still goes through send_messages."""
    template = _template(tenant, content="<p>Hello</p>", sender="Zoë Ørsted, Équipe")
    provider = sending.open_connection()
    try:
        with schema_context(tenant.schema_name):
            for address in ADDRESSES:
                member_id = uuid.uuid4()
                message = template.message(member_id=member_id, email=address, connection=provider)
                assert isinstance(message, sending.PreparedMessage)
                provider.send_messages([message])
                sending.send(provider, message)
            odd = template.message(member_id=uuid.uuid4(), email="zoë@example.com", connection=provider)
            assert isinstance(odd, sending.NewsletterMessage)
            sending.send(provider, odd)
    finally:
        provider.close()
    smtp_server.wait_for(2 * len(ADDRESSES) + 1)
    envelopes = smtp_server.envelopes
    for n, address in enumerate(ADDRESSES):
        by_backend, by_send = envelopes[2 * n], envelopes[2 * n + 1]
        assert by_backend == by_send and by_send[1] == [address]
        assert by_send[0] == sending.from_address()
    assert len(envelopes) == 2 * len(ADDRESSES) + 1 and len(envelopes[-1][1]) == 1  # the full message, by the backend

    class OwnWay(sending.SmtpBackend):  # a subclass that sends its own way is left to do so
        def send_messages(self, email_messages):
            raise RuntimeError("sent its own way")

    assert not sending._plain_smtp(OwnWay) and sending._plain_smtp(sending.SmtpBackend)
    with pytest.raises(RuntimeError, match="its own way"):
        sending.send(OwnWay(host="127.0.0.1", port=smtp_server.port), message)


def test_a_providers_api_backend_gets_the_full_message_with_its_attributes(tenant, settings):
    settings.NEWSLETTER_EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    template = _template(tenant, content="<p>Hello</p>")
    assert template.prepared is None
    member_id = uuid.uuid4()
    with schema_context(tenant.schema_name):
        message = template.message(member_id=member_id, email="ada@example.com")
    assert isinstance(message, sending.NewsletterMessage)
    assert message.metadata["member"] == str(member_id) and message.tags == ["newsletter"]
    assert message.idempotency_key == sending.message_id(template.send_id, member_id, template.host).strip("<>")


def test_a_send_over_smtp_sends_each_member_their_own_prepared_email(api, tenant, smtp_server, monkeypatch):
    newsletter = factories.default_newsletter(tenant)
    members = [factories.member(tenant, email=f"p{n}@example.com") for n in range(3)]
    odd = factories.member(tenant, email="zoë@example.com")
    built = []
    prepared_message = sending.Prepared.message

    def spy(self, **kwargs):
        made = prepared_message(self, **kwargs)
        built.append((kwargs["email"], type(made).__name__))
        return made

    monkeypatch.setattr(sending.Prepared, "message", spy)
    post = make_post(tenant, content=LONG_PARAGRAPH)
    send = api.post(f"/api/posts/{post.id}/send", {"newsletterId": str(newsletter.id)}).json()["send"]
    run_sends()
    received = smtp_server.wait_for(4)
    assert sorted(built) == sorted([(m.email, "PreparedMessage") for m in members] + [(odd.email, "NoneType")])
    host = f"{tenant.subdomain}.testserver.local"
    seen = set()
    for member in [*members, odd]:
        identifier = f"<{send['id'].replace('-', '')}.{member.id.hex}@{host}>"
        [message] = [m for m in received if str(m["Message-ID"]).strip() == identifier]
        one_click, mailto = re.fullmatch(r"<(http://[^>]+)>, <(mailto:[^>]+)>", str(message["List-Unsubscribe"])).groups()
        assert str(message["List-Unsubscribe-Post"]) == "List-Unsubscribe=One-Click"
        assert mailto.endswith(f"subject=unsubscribe%20{member.id}")
        with schema_context(tenant.schema_name):
            assert preferences_read(parse_qs(urlsplit(one_click).query)["token"][0]) == (str(member.id),
                                                                                        str(newsletter.id))
            text, html = parts(message)
            preferences = re.search(r"http://\S+/members/preferences\?token=\S+", text).group(0)
            assert preferences_read(parse_qs(urlsplit(preferences).query)["token"][0]) == (str(member.id), None)
        assert one_click in text and one_click in html and preferences in html
        assert " ".join(f"word{n}" for n in range(600)) in re.sub(r"\s+", " ", text)
        seen.add(one_click)
    assert len(seen) == 4
    [raw] = [r for r in smtp_server.raw if re.search(rb"^To: p0@example\.com\r?$", r, re.M)]
    assert b"Content-Transfer-Encoding: quoted-printable" not in raw
