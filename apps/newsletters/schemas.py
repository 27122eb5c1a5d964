"""The newsletters API's bodies (docs/newsletters.md#dashboard-api). Text that becomes an email
header (a newsletter's name and sender name, its reply-to address, a send's subject) is one line:
CR or LF is refused (400), never passed on to the provider."""
from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, StrictBool

from apps.core.schemas import InSchema, OutSchema, SuccessOut
from apps.core.validation import clean_email, clean_min_length, text
from apps.newsletters.models import FOOTER_MAX, NAME_MAX, Newsletter, Send
from apps.newsletters.rendering import SUBJECT_MAX
from apps.site.rules import clean_image


def _one_line(label: str, maximum: int, *, required: bool = False):
    def clean(value) -> str:
        value = text(value, f"{label} must be text")
        if "\r" in value or "\n" in value:
            raise ValueError(f"{label} must be on one line")
        return clean_min_length(value, 1 if required else 0, f"{label} is required", maximum=maximum,
                                too_long=f"{label} must be at most {maximum} characters")
    return clean


def _optional(clean):
    return lambda value: None if value is None else clean(value)


def _reply_to(value) -> str:
    value = text(value, "Reply-to must be an email address")
    if "\r" in value or "\n" in value:
        raise ValueError("Reply-to must be on one line")
    return clean_email(value, "Reply-to must be an email address") if value.strip() else ""


def _footer(value) -> str:
    return clean_min_length(value, 0, "Footer must be text", maximum=FOOTER_MAX,
                            too_long=f"Footer must be at most {FOOTER_MAX} characters")


def _status(value) -> str:
    if value not in ("active", "archived"):
        raise ValueError("Status must be active or archived")
    return value


def _sort(value) -> int:
    if type(value) is not int or not 0 <= value <= 10_000:
        raise ValueError("Sort order must be a whole number from 0 to 10000")
    return value


Name = Annotated[str, BeforeValidator(_one_line("Name", NAME_MAX, required=True))]
SenderName = Annotated[str, BeforeValidator(_one_line("Sender name", NAME_MAX))]
ReplyTo = Annotated[str, BeforeValidator(_reply_to)]
HeaderImage = Annotated[str, BeforeValidator(lambda value: clean_image(value, name="Header image"))]
Footer = Annotated[str, BeforeValidator(_footer)]
Subject = Annotated[str, BeforeValidator(_one_line("Subject", SUBJECT_MAX))]
Description = Annotated[str, BeforeValidator(_one_line("Description", 2000))]


class NewsletterIn(InSchema):
    name: Name = ""
    description: Description = ""
    senderName: SenderName = Field("", description="The From name; empty: the site's title")
    replyTo: ReplyTo = ""
    headerImage: HeaderImage = Field("", description="A media id of the library or an http(s) address")
    footer: Footer = Field("", description="Plain text under every email")
    defaultOnSignup: StrictBool = Field(True, description="New readers who name no newsletter join it")
    sortOrder: Annotated[int, BeforeValidator(_sort)] = 0


class NewsletterUpdateIn(InSchema):
    name: Annotated[str | None, BeforeValidator(_optional(_one_line("Name", NAME_MAX, required=True)))] = None
    description: Annotated[str | None, BeforeValidator(_optional(_one_line("Description", 2000)))] = None
    senderName: Annotated[str | None, BeforeValidator(_optional(_one_line("Sender name", NAME_MAX)))] = None
    replyTo: Annotated[str | None, BeforeValidator(_optional(_reply_to))] = None
    headerImage: Annotated[str | None, BeforeValidator(_optional(
        lambda value: clean_image(value, name="Header image")))] = None
    footer: Annotated[str | None, BeforeValidator(_optional(_footer))] = None
    defaultOnSignup: StrictBool | None = None
    status: Annotated[Literal["active", "archived"] | None, BeforeValidator(_optional(_status))] = None
    sortOrder: Annotated[int | None, BeforeValidator(_optional(_sort))] = None


class NewsletterOut(OutSchema):
    id: str
    name: str
    slug: str
    description: str
    senderName: str
    replyTo: str
    headerImage: str
    footer: str
    defaultOnSignup: bool
    status: Literal["active", "archived"]
    sortOrder: int
    members: int  # subscribers now (whose email is not disabled)
    createdAt: datetime
    updatedAt: datetime

    @staticmethod
    def of(newsletter: Newsletter, members: int) -> "NewsletterOut":
        return NewsletterOut(
            id=str(newsletter.id), name=newsletter.name, slug=newsletter.slug, description=newsletter.description,
            senderName=newsletter.sender_name, replyTo=newsletter.reply_to, headerImage=newsletter.header_image,
            footer=newsletter.footer, defaultOnSignup=newsletter.default_on_signup, status=newsletter.status,
            sortOrder=newsletter.sort_order, members=members, createdAt=newsletter.created_at,
            updatedAt=newsletter.updated_at)


class NewsletterListOut(SuccessOut):
    newsletters: list[NewsletterOut]


class NewsletterSavedOut(SuccessOut):
    message: str
    newsletter: NewsletterOut


class SendIn(InSchema):
    newsletterId: Annotated[str, BeforeValidator(lambda value: text(value, "Choose a newsletter").strip())] = ""
    labelId: Annotated[str | None, BeforeValidator(_optional(
        lambda value: text(value, "Label must be an id").strip() or None))] = Field(
        None, description="Only the newsletter's members with this label")
    subject: Subject = Field("", description="The email's subject; empty: the post's title")


class TestSendIn(InSchema):
    newsletterId: Annotated[str, BeforeValidator(lambda value: text(value, "Choose a newsletter").strip())] = ""


class RecipientsOut(SuccessOut):
    recipients: int  # members the send would email now


class NamedOut(OutSchema):
    id: str
    name: str


class SendCountsOut(OutSchema):
    pending: int
    delivered: int  # accepted by the email provider
    failed: int
    bounced: int
    complained: int
    skipped: int  # unsubscribed, disabled or deleted between the send's start and their email
    opened: int | None = Field(None, description="Members who opened the email; null when opens were not tracked")
    clicked: int | None = Field(None, description="Members who clicked a link; null when clicks were not tracked")


class SendTrackingOut(OutSchema):
    opens: bool  # the email counted opens (the company's setting when the send started)
    clicks: bool  # the email counted clicks


class SendLinkOut(OutSchema):
    url: str
    members: int  # members who clicked it
    clicks: int  # clicks, all members together


class SendReasonOut(OutSchema):
    status: str  # failed, bounced, complained, skipped
    reason: str
    count: int


class SendOut(OutSchema):
    id: str
    postId: str | None
    postTitle: str
    newsletter: NamedOut
    label: NamedOut | None
    subject: str
    status: Literal["scheduled", "queued", "sending", "sent", "failed", "cancelled"]
    recipients: int
    error: str
    createdAt: datetime
    startedAt: datetime | None
    finishedAt: datetime | None

    @staticmethod
    def of(send: Send) -> "SendOut":
        return SendOut(
            id=str(send.id), postId=str(send.post_id) if send.post_id else None, postTitle=send.post_title,
            newsletter=NamedOut(id=str(send.newsletter_id), name=send.newsletter.name),
            label=NamedOut(id=str(send.label_id), name=send.label_name) if send.label_id else None,
            subject=send.subject, status=send.status, recipients=send.recipients, error=send.error,
            createdAt=send.created_at, startedAt=send.started_at, finishedAt=send.finished_at)


class SendReplyOut(SuccessOut):
    message: str
    send: SendOut


class SendListOut(SuccessOut):
    sends: list[SendOut]


class SendReportOut(SuccessOut):
    send: SendOut
    counts: SendCountsOut
    reasons: list[SendReasonOut]  # the most frequent reasons of failures, bounces and complaints
    tracking: SendTrackingOut
    links: list[SendLinkOut] = Field(description="The most clicked links (empty when clicks were not tracked)")


class NewsletterSettingsIn(InSchema):
    trackOpens: StrictBool | None = Field(None, description="Count opens of the emails of the sends that start from now on")
    trackClicks: StrictBool | None = Field(None, description="Count clicks of their links")


class NewsletterSettingsOut(OutSchema):
    trackOpens: bool
    trackClicks: bool


class NewsletterSettingsReplyOut(SuccessOut):
    message: str
    settings: NewsletterSettingsOut
