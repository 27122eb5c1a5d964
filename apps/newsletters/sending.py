"""One member's newsletter email, through the email provider interface (django-anymail's
AnymailMessage, sent by NEWSLETTER_EMAIL_BACKEND: Django's SMTP backend by default, or an ESP's
anymail backend). docs/newsletters.md#exactly-once says what a provider is told and what it is not.

- Message-ID `<{send id}.{member id}@{company host}>`: the same for every try of one member's email
  of one send, so a receiver (or the provider) can tell a second copy from a new email; the same id
  is the idempotency key given to a provider that takes one (apps.newsletters.backends).
- List-Unsubscribe (the member's https one-click address and a mailto), List-Unsubscribe-Post
  (RFC 8058), List-Id (the newsletter), and the member's preferences and unsubscribe links in the
  body, made from signed per-member tokens (apps.members.tokens).
- anymail metadata (the company, send and member) comes back with the provider's events
  (apps.newsletters.webhooks: bounces and complaints).

Over Django's SMTP backend (or a subclass of it) the MIME message is built once per send
(`Prepared`): the bytes Django writes for a member, with unguessable placeholders where members
differ (To, Date, Message-ID, List-Unsubscribe) and the rendering's markers in the parts; each
member's email is those bytes with the member's values put in (`PreparedMessage`), which the backend
sends as it sends any message (its addresses sanitised, then `sendmail`). A member is given the full
build instead (`Template.full_message`) whenever the bytes could differ from it: an address that is
not plain ASCII, a line that would pass 998 bytes with the member's links, parts that would not be
8bit. ESP backends (anymail's) always get the full message: they read its attributes (metadata,
tags, the idempotency key), not its bytes.
"""
from __future__ import annotations

import functools
import re
import secrets
import smtplib
import socket
import time
import uuid
from dataclasses import dataclass
from email.errors import HeaderParseError
from email.headerregistry import parser as header_parser
from email.utils import formataddr, formatdate, parseaddr
from urllib.parse import quote, urlencode

from anymail.exceptions import AnymailAPIError, AnymailError, AnymailRecipientsRefused
from anymail.message import AnymailMessage
from django.conf import settings
from django.core.mail import get_connection
from django.core.mail.backends.smtp import EmailBackend as SmtpBackend
from django.core.mail.message import RFC5322_EMAIL_LINE_LENGTH_LIMIT, sanitize_address
from django.utils.module_loading import import_string

from apps.members.tokens import preferences_token, tracking_token
from apps.newsletters.rendering import Markers, is_flowed, one_line
from tenants.addresses import tenant_base_url, tenant_host


class NewsletterMessage(AnymailMessage):
    """An AnymailMessage whose headers are never folded: List-Unsubscribe's addresses are longer
    than a line, and a folding generator would write them as encoded words, which mail apps do not
    read as addresses (anymail's ESP backends send headers as fields: nothing is folded there)."""

    text_flowed = False  # the plain-text part has soft breaks (apps.newsletters.rendering.wrap_text)

    def message(self, *args, **kwargs):
        mime = super().message(*args, **kwargs)
        mime.policy = mime.policy.clone(max_line_length=None)
        if self.text_flowed:
            for part in mime.walk():
                if part.get_content_type() == "text/plain":
                    part.set_param("format", "flowed")
                    break
        return mime


def backend_path() -> str:
    return settings.NEWSLETTER_EMAIL_BACKEND or settings.EMAIL_BACKEND


def open_connection():
    """A connection to the provider (opened: kept for many messages)."""
    connection = get_connection(backend_path(), fail_silently=False, timeout=settings.NEWSLETTER_TIMEOUT)
    connection.open()
    return connection


def from_address() -> str:
    return parseaddr(settings.NEWSLETTER_FROM_EMAIL or settings.DEFAULT_FROM_EMAIL)[1]


def message_id(send_id, member_id, host: str) -> str:
    """`<send id.member id@company host>` (the ids' 32 hex digits): one per member and send."""
    return f"<{uuid.UUID(str(send_id)).hex}.{uuid.UUID(str(member_id)).hex}@{host}>"


@dataclass(frozen=True)
class Template:
    """What every member's email of a send shares (made once per sender thread)."""

    schema: str
    send_id: str
    newsletter_id: str
    subject: str
    html: str
    text: str
    from_email: str
    reply_to: tuple[str, ...]
    list_id: str
    host: str
    base_url: str
    mailto: str
    markers: Markers

    @classmethod
    def of(cls, *, send, newsletter, client, schema: str, site_title: str) -> "Template":
        host = tenant_host(client.subdomain)
        sender = one_line(newsletter.sender_name) or one_line(site_title)
        address = from_address()
        list_name = one_line(newsletter.name).replace('"', "'")
        return cls(schema=schema, send_id=str(send.pk), newsletter_id=str(newsletter.pk), subject=one_line(send.subject),
                   html=send.html, text=send.text, from_email=formataddr((sender, address)),
                   reply_to=(newsletter.reply_to,) if newsletter.reply_to else (),
                   list_id=f'"{list_name}" <{newsletter.pk.hex}.{host}>', host=host,
                   base_url=tenant_base_url(client.subdomain),
                   mailto=settings.NEWSLETTER_UNSUBSCRIBE_MAILTO or address, markers=Markers.of(send.pk))

    def links(self, member_id) -> tuple[str, str, str, str]:
        """A member's preferences address, one-click address, Message-ID and List-Unsubscribe."""
        preferences = f"{self.base_url}/members/preferences?{urlencode({'token': preferences_token(member_id)})}"
        one_click = (f"{self.base_url}/members/unsubscribe?"
                     f"{urlencode({'token': preferences_token(member_id, self.newsletter_id)})}")
        mailto = f"mailto:{self.mailto}?subject={quote('unsubscribe ' + str(member_id))}"
        return preferences, one_click, message_id(self.send_id, member_id, self.host), f"<{one_click}>, <{mailto}>"

    def tracking(self, member_id) -> str:
        """The member's token in the open pixel and click links (apps.newsletters.tracking), when the
        email has them: as long as its marker."""
        return tracking_token(schema=self.schema, send_id=self.send_id, member_id=member_id)

    def message(self, *, member_id, email: str, connection=None, subject_prefix: str = ""):
        """The member's email: its prepared bytes when the provider is an SMTP server and they are
        the full message's (`Prepared`), else the full message."""
        if not subject_prefix and self.prepared is not None:
            links = self.links(member_id)
            fast = self.prepared.message(email=email, links=links,
                                         tracking=self.tracking(member_id) if self.prepared.tracked else "")
            if fast is not None:
                return fast
            return self.full_message(member_id=member_id, email=email, connection=connection, links=links)
        return self.full_message(member_id=member_id, email=email, connection=connection, subject_prefix=subject_prefix)

    def full_message(self, *, member_id, email: str, connection=None, subject_prefix: str = "",
                     links: tuple[str, str, str, str] | None = None) -> NewsletterMessage:
        """The member's email built whole by Django and anymail (what every provider can send)."""
        preferences, one_click, identifier, unsubscribe = links or self.links(member_id)
        html = self.html.replace(self.markers.preferences, preferences).replace(self.markers.unsubscribe, one_click)
        html = html.replace(self.markers.tracking, self.tracking(member_id))
        text = self.text.replace(self.markers.preferences, preferences).replace(self.markers.unsubscribe, one_click)
        return self._build(subject=subject_prefix + self.subject, to=email, text=text, html=html,
                           identifier=identifier, unsubscribe=unsubscribe, member_id=member_id, connection=connection)

    def _build(self, *, subject: str, to: str, text: str, html: str, identifier: str, unsubscribe: str, member_id,
               connection=None, date: str | None = None) -> NewsletterMessage:
        headers = {"Date": date} if date is not None else {}  # first: where Django writes its own Date
        headers.update({"Message-ID": identifier, "List-Id": self.list_id, "List-Unsubscribe": unsubscribe,
                        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"})
        message = NewsletterMessage(subject=subject, body=text, from_email=self.from_email, to=[to],
                                    reply_to=list(self.reply_to), connection=connection, headers=headers)
        message.attach_alternative(html, "text/html")
        message.text_flowed = self.text_flowed
        message.metadata = {"company": self.schema, "send": self.send_id, "member": str(member_id)}
        message.tags = ["newsletter"]
        message.idempotency_key = identifier.strip("<>")  # apps.newsletters.backends
        return message

    @functools.cached_property
    def text_flowed(self) -> bool:
        return is_flowed(self.text)

    @functools.cached_property
    def prepared(self) -> "Prepared | None":
        """The send's prepared bytes (made once, at the first email), or None: not an SMTP backend, or
        parts that cannot be sent 8bit."""
        try:
            backend = import_string(backend_path())
        except ImportError:
            return None
        if not (isinstance(backend, type) and issubclass(backend, SmtpBackend)):
            return None
        return Prepared.of(self)


# --- the prepared bytes (Django's SMTP backend) --------------------------------------------------------
# An address that Django writes as it is in To, and that splits nowhere (no space, quote, comma, bracket).
_PLAIN_ADDRESS = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9.-]+")
_LIMIT = RFC5322_EMAIL_LINE_LENGTH_LIMIT


class PreparedMessage:
    """One member's email as prepared bytes: what Django's SMTP backend reads of a message
    (EmailBackend._send: `from_email`, `recipients()`, `encoding`, `message().as_bytes(linesep="\\r\\n")`).
    Its addresses are (name, address) pairs, which Django's sanitize_address takes as they are: the
    backend sanitises them without parsing a header each time (the envelope is the same)."""

    encoding = None  # DEFAULT_CHARSET, as the full message (its addresses are sanitised with it)
    cc: tuple = ()
    bcc: tuple = ()

    def __init__(self, *, from_email: tuple[str, str], to: str, data: bytes, envelope_from: str):
        self.from_email, self.to, self.data, self.envelope_from = from_email, [to], data, envelope_from

    def recipients(self) -> list[tuple[str, str]]:
        return [("", address) for address in self.to]

    def message(self) -> "PreparedMessage":
        return self

    def as_bytes(self, unixfrom: bool = False, linesep: str = "\n") -> bytes:
        if unixfrom:
            raise ValueError("a prepared message has no envelope line")
        return self.data if linesep == "\r\n" else self.data.replace(b"\r\n", linesep.encode("ascii"))

    def as_string(self, unixfrom: bool = False, linesep: str = "\n") -> str:
        return self.as_bytes(unixfrom, linesep).decode("utf-8", "surrogateescape")


@dataclass(frozen=True)
class _Lines:
    """A part's lines that hold markers: the full message would be quoted-printable (not these
    bytes) if one of them passed 998 bytes with a member's links."""

    lines: tuple[tuple[int, int, int], ...]  # (bytes without its markers, preferences markers, unsubscribe markers)

    @classmethod
    def of(cls, part: str, markers: Markers) -> "_Lines":
        held = []
        for line in part.splitlines():  # as Django measures them (SafeMIMEText.set_payload)
            preferences, unsubscribe = line.count(markers.preferences), line.count(markers.unsubscribe)
            if preferences or unsubscribe:
                size = len(line.encode(errors="surrogateescape"))
                held.append((size - preferences * len(markers.preferences) - unsubscribe * len(markers.unsubscribe),
                             preferences, unsubscribe))
        return cls(tuple(held))

    def fit(self, preferences: int, unsubscribe: int) -> bool:
        return all(size + p * preferences + u * unsubscribe <= _LIMIT for size, p, u in self.lines)


class Prepared:
    """The bytes of a send's email as Django's SMTP backend writes them, made once with placeholders
    (random for each send: no post, subject or address can hold one) where members differ, cut at
    each placeholder: a member's email is the pieces joined around the member's values."""

    def __init__(self, template: Template, pieces: list, text: _Lines, html: _Lines, sender: tuple[str, str]):
        self.template, self.pieces, self.text, self.html, self.sender = template, pieces, text, html, sender
        self._date = (0, b"")  # (second, Date header value): Django writes a new Date for each email

    @classmethod
    def of(cls, template: Template) -> "Prepared | None":
        tag = secrets.token_hex(16)
        holders = {"to": f"to-{tag}@placeholder.invalid", "date": f"date-{tag}", "id": f"<id-{tag}@placeholder.invalid>",
                   "unsubscribe": f"unsubscribe-{tag}"}
        mime = template._build(subject=template.subject, to=holders["to"], text=template.text, html=template.html,
                               identifier=holders["id"], unsubscribe=holders["unsubscribe"], member_id="",
                               date=holders["date"]).message()
        if any(part.get("Content-Transfer-Encoding") not in ("7bit", "8bit")
               for part in mime.walk() if not part.is_multipart()):
            return None  # a line passes 998 bytes (a <pre>, a long word): the full message, quoted-printable
        data = mime.as_bytes(linesep="\r\n")
        head_end = data.find(b"\r\n\r\n")
        if head_end < 0:
            return None
        found = {}
        for key, holder in holders.items():
            at = data.find(holder.encode("ascii"))
            if not 0 <= at < head_end or data.count(holder.encode("ascii")) != 1:
                return None  # not written as it was given: the full message for everyone
            found[at] = (key, len(holder))
        markers = template.markers
        for key, marker in (("preferences", markers.preferences), ("one_click", markers.unsubscribe),
                            ("tracking", markers.tracking)):
            encoded = marker.encode("ascii")
            at = data.find(encoded, head_end)
            while at >= 0:
                found[at] = (key, len(encoded))
                at = data.find(encoded, at + len(encoded))
        pieces: list = []
        start = 0
        for at in sorted(found):
            key, size = found[at]
            pieces += [data[start:at], key]
            start = at + size
        pieces.append(data[start:])
        try:  # the From address parsed once, as Django's sanitize_address parses it
            mailbox, rest = header_parser.get_mailbox(template.from_email)
        except (HeaderParseError, ValueError, IndexError):
            return None
        if rest or not mailbox.domain:
            return None
        sender = (mailbox.display_name or "", f"{mailbox.local_part}@{mailbox.domain}")
        return cls(template, pieces, _Lines.of(template.text, markers), _Lines.of(template.html, markers), sender)

    @functools.cached_property
    def envelope_from(self) -> str:
        """The envelope sender as Django's SMTP backend writes it (sanitize_address), made once."""
        return sanitize_address(self.sender, settings.DEFAULT_CHARSET)

    @functools.cached_property
    def tracked(self) -> bool:
        """The email has the member's tracking token (opens or clicks counted)."""
        return "tracking" in self.pieces

    def date(self) -> bytes:
        """Date as Django writes it (formatdate), made once a second."""
        now = int(time.time())
        second, value = self._date
        if second != now:
            value = formatdate(now, localtime=settings.EMAIL_USE_LOCALTIME).encode("ascii")
            self._date = (now, value)
        return value

    def message(self, *, email: str, links: tuple[str, str, str, str], tracking: str = "") -> PreparedMessage | None:
        """The member's email, or None when its bytes could differ from the full message's."""
        preferences, one_click, identifier, unsubscribe = links
        if not (email.isascii() and _PLAIN_ADDRESS.fullmatch(email) and preferences.isascii()
                and unsubscribe.isascii() and identifier.isascii()):
            return None
        if not (self.text.fit(len(preferences), len(one_click)) and self.html.fit(len(preferences), len(one_click))):
            return None
        values = {"to": email.encode("ascii"), "date": self.date(), "id": identifier.encode("ascii"),
                  "unsubscribe": unsubscribe.encode("ascii"), "preferences": preferences.encode("ascii"),
                  "one_click": one_click.encode("ascii"), "tracking": tracking.encode("ascii")}
        data = b"".join(values[piece] if isinstance(piece, str) else piece for piece in self.pieces)
        return PreparedMessage(from_email=self.sender, to=email, data=data, envelope_from=self.envelope_from)


def _plain_smtp(backend: type) -> bool:
    """Django's SMTP backend, or a subclass that sends as it does (sendmail over its connection)."""
    return (issubclass(backend, SmtpBackend) and backend.send_messages is SmtpBackend.send_messages
            and backend._send is SmtpBackend._send)


def send(provider, message) -> None:
    """One email through the provider's connection (opened: kept for many messages); raises what
    the provider answered. A prepared message over Django's own SMTP backend goes to `sendmail`
    as that backend's `send_messages` would send it (its From sanitised once per send, its To as
    Django sanitises it), without the backend's per-call lock and checks; any other message, or
    backend, through `send_messages`."""
    if isinstance(message, PreparedMessage) and _plain_smtp(type(provider)):
        if provider.connection is None:
            provider.open()
        recipients = [sanitize_address(address, settings.DEFAULT_CHARSET) for address in message.recipients()]
        provider.connection.sendmail(message.envelope_from, recipients, message.data)
        return
    provider.send_messages([message])


# --- what a provider's answer means --------------------------------------------------------------------
@dataclass(frozen=True)
class Outcome:
    permanent: bool  # the provider refused this address or this email: trying again changes nothing
    reason: str
    reconnect: bool = False  # the connection is in an unknown state: open a new one


def outcome_of(exc: Exception) -> Outcome:
    reason = f"{exc.__class__.__name__}: {exc}"[:500]
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _message in exc.recipients.values()]
        return Outcome(permanent=all(500 <= code < 600 for code in codes), reason=reason)
    if isinstance(exc, smtplib.SMTPResponseException):
        return Outcome(permanent=500 <= exc.smtp_code < 600, reason=reason, reconnect=exc.smtp_code in (421,))
    if isinstance(exc, AnymailRecipientsRefused):
        return Outcome(permanent=True, reason=reason)
    if isinstance(exc, AnymailAPIError):
        status = getattr(exc, "status_code", None) or 0
        return Outcome(permanent=400 <= status < 500 and status not in (408, 429), reason=reason)
    if isinstance(exc, AnymailError):
        return Outcome(permanent=False, reason=reason)
    if isinstance(exc, (smtplib.SMTPException, OSError, socket.timeout)):
        return Outcome(permanent=False, reason=reason, reconnect=True)
    return Outcome(permanent=False, reason=reason, reconnect=True)
