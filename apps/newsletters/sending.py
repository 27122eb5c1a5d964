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
"""
from __future__ import annotations

import smtplib
import socket
import uuid
from dataclasses import dataclass
from email.utils import formataddr, parseaddr
from urllib.parse import quote, urlencode

from anymail.exceptions import AnymailAPIError, AnymailError, AnymailRecipientsRefused
from anymail.message import AnymailMessage
from django.conf import settings
from django.core.mail import get_connection

from apps.members.tokens import preferences_token
from apps.newsletters.rendering import Markers, one_line
from tenants.addresses import tenant_base_url, tenant_host


class NewsletterMessage(AnymailMessage):
    """An AnymailMessage whose headers are never folded: List-Unsubscribe's addresses are longer
    than a line, and a folding generator would write them as encoded words, which mail apps do not
    read as addresses (anymail's ESP backends send headers as fields: nothing is folded there)."""

    def message(self, *args, **kwargs):
        mime = super().message(*args, **kwargs)
        mime.policy = mime.policy.clone(max_line_length=None)
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

    def message(self, *, member_id, email: str, connection=None, subject_prefix: str = "") -> NewsletterMessage:
        preferences = f"{self.base_url}/members/preferences?{urlencode({'token': preferences_token(member_id)})}"
        one_click = (f"{self.base_url}/members/unsubscribe?"
                     f"{urlencode({'token': preferences_token(member_id, self.newsletter_id)})}")
        html = self.html.replace(self.markers.preferences, preferences).replace(self.markers.unsubscribe, one_click)
        text = self.text.replace(self.markers.preferences, preferences).replace(self.markers.unsubscribe, one_click)
        identifier = message_id(self.send_id, member_id, self.host)
        mailto = f"mailto:{self.mailto}?subject={quote('unsubscribe ' + str(member_id))}"
        message = NewsletterMessage(
            subject=subject_prefix + self.subject, body=text, from_email=self.from_email, to=[email],
            reply_to=list(self.reply_to), connection=connection,
            headers={"Message-ID": identifier, "List-Id": self.list_id,
                     "List-Unsubscribe": f"<{one_click}>, <{mailto}>",
                     "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"})
        message.attach_alternative(html, "text/html")
        message.metadata = {"company": self.schema, "send": self.send_id, "member": str(member_id)}
        message.tags = ["newsletter"]
        message.idempotency_key = identifier.strip("<>")  # apps.newsletters.backends
        return message


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
