"""Newsletters and sending posts by email on the dashboard API (docs/newsletters.md#dashboard-api).
Every role sees newsletters and sends (members.read); editors and admins manage newsletters
(newsletters.manage) and send posts (newsletters.send).

GET  newsletters                       the newsletters, with their members
POST newsletters                       a new newsletter (201)
GET  newsletters/{id}                  one
PUT  newsletters/{id}                  change the fields given (status archived: nothing is sent to it)
GET  newsletters/settings              the company's newsletter settings: whether emails count opens and clicks
PUT  newsletters/settings              change them (admins: newsletters.tracking)
GET  newsletters/sends/{send_id}       a send's report: recipients, delivered, failed with reasons, bounced;
                                       opens and clicks when the send tracked them
POST newsletters/sends/{send_id}/cancel  a send waiting for its post's publication is not sent
GET  posts/{post_id}/send/recipients   newsletterId, labelId: how many members a send would email now
POST posts/{post_id}/send              {newsletterId, labelId?, subject?}: send it now (a published post)
                                       or when it is published (a scheduled post); 202
POST posts/{post_id}/send/test         {newsletterId}: the email, to the signed-in user's own address; 202
GET  posts/{post_id}/sends             the post's sends
"""
from __future__ import annotations

from ninja import Query, Router, Schema

from apps.content.selectors import post_get
from apps.core.errors import ValidationFailed
from apps.core.permissions import requires
from apps.core.schemas import MessageOut
from apps.members.selectors import label_get
from apps.newsletters import selectors, services
from apps.newsletters.schemas import (NewsletterIn, NewsletterListOut, NewsletterOut, NewsletterSavedOut,
                                      NewsletterSettingsIn, NewsletterSettingsOut, NewsletterSettingsReplyOut,
                                      NewsletterUpdateIn, RecipientsOut, SendCountsOut, SendIn, SendLinkOut,
                                      SendListOut, SendOut, SendReasonOut, SendReplyOut, SendReportOut,
                                      SendTrackingOut, TestSendIn)

router = Router(tags=["newsletters"])
post_router = Router(tags=["newsletters"])
CANNOT_READ = "You don't have permission to see newsletters"
CANNOT_MANAGE = "Only editors and administrators can manage newsletters"
CANNOT_SEND = "Only editors and administrators can send posts by email"
CANNOT_TRACK = "Only administrators can change whether newsletter emails count opens and clicks"


def _out(newsletter) -> NewsletterOut:
    return NewsletterOut.of(newsletter, selectors.recipients_count(newsletter=newsletter))


@router.get("", response=NewsletterListOut)
@requires("members.read", CANNOT_READ)
def list_newsletters(request):
    services.newsletter_first_ensure()
    return NewsletterListOut(newsletters=[NewsletterOut.of(n, n.member_count)
                                          for n in selectors.newsletter_list_counted()])


@router.post("", response={201: NewsletterSavedOut})
@requires("newsletters.manage", CANNOT_MANAGE)
def create_newsletter(request, payload: NewsletterIn):
    newsletter = services.newsletter_create(
        name=payload.name, description=payload.description, sender_name=payload.senderName,
        reply_to=payload.replyTo, header_image=payload.headerImage, footer=payload.footer,
        default_on_signup=payload.defaultOnSignup, sort_order=payload.sortOrder)
    return 201, NewsletterSavedOut(message="Newsletter created", newsletter=_out(newsletter))


def _settings_out(row) -> NewsletterSettingsOut:
    return NewsletterSettingsOut(trackOpens=row.track_opens, trackClicks=row.track_clicks)


@router.get("/settings", response=NewsletterSettingsReplyOut)
@requires("members.read", CANNOT_READ)
def get_settings(request):
    return NewsletterSettingsReplyOut(message="Newsletter settings",
                                      settings=_settings_out(selectors.newsletter_settings_get()))


@router.put("/settings", response=NewsletterSettingsReplyOut)
@requires("newsletters.tracking", CANNOT_TRACK)
def update_settings(request, payload: NewsletterSettingsIn):
    row = services.newsletter_settings_update(client=request.tenant, actor=request.auth,
                                              track_opens=payload.trackOpens, track_clicks=payload.trackClicks)
    return NewsletterSettingsReplyOut(message="Newsletter settings saved", settings=_settings_out(row))


@router.get("/sends/{send_id}", response=SendReportOut)
@requires("members.read", CANNOT_READ)
def get_send(request, send_id: str):
    send = selectors.send_get(send_id)
    report = selectors.send_report(send)
    counts = report["counts"]
    engagement = selectors.send_tracking_report(send)
    return SendReportOut(send=SendOut.of(send), counts=SendCountsOut(
        pending=counts["pending"], delivered=counts["sent"], failed=counts["failed"], bounced=counts["bounced"],
        complained=counts["complained"], skipped=counts["skipped"], opened=engagement["opened"],
        clicked=engagement["clicked"]), reasons=[SendReasonOut(status=r["status"], reason=r["error"], count=r["n"])
                                                 for r in report["reasons"]],
        tracking=SendTrackingOut(opens=engagement["opens"], clicks=engagement["clicks"]),
        links=[SendLinkOut(url=link["url"], members=link["members"], clicks=link["clicks"])
               for link in engagement["links"]])


@router.post("/sends/{send_id}/cancel", response=SendReplyOut)
@requires("newsletters.send", CANNOT_SEND)
def cancel_send(request, send_id: str):
    send = services.send_cancel(send=selectors.send_get(send_id))
    return SendReplyOut(message="The send is cancelled", send=SendOut.of(send))


@router.get("/{newsletter_id}", response=NewsletterSavedOut)
@requires("members.read", CANNOT_READ)
def get_newsletter(request, newsletter_id: str):
    return NewsletterSavedOut(message="Newsletter", newsletter=_out(selectors.newsletter_get(newsletter_id)))


@router.put("/{newsletter_id}", response=NewsletterSavedOut)
@requires("newsletters.manage", CANNOT_MANAGE)
def update_newsletter(request, newsletter_id: str, payload: NewsletterUpdateIn):
    newsletter = services.newsletter_update(
        newsletter=selectors.newsletter_get(newsletter_id), name=payload.name, description=payload.description,
        sender_name=payload.senderName, reply_to=payload.replyTo, header_image=payload.headerImage,
        footer=payload.footer, default_on_signup=payload.defaultOnSignup, status=payload.status,
        sort_order=payload.sortOrder)
    return NewsletterSavedOut(message="Newsletter updated", newsletter=_out(newsletter))


# --- a post's sends -------------------------------------------------------------------------------------
def _newsletter(newsletter_id: str):
    if not newsletter_id:
        raise ValidationFailed("Choose a newsletter", field="newsletterId")
    return selectors.newsletter_get(newsletter_id)


class RecipientsQuery(Schema):
    newsletterId: str = ""
    labelId: str = ""


@post_router.get("/{post_id}/send/recipients", response=RecipientsOut)
@requires("newsletters.send", CANNOT_SEND)
def count_recipients(request, post_id: str, query: Query[RecipientsQuery]):
    """How many members the send would email now (shown before it is confirmed)."""
    post_get(post_id)
    label = label_get(query.labelId) if query.labelId else None
    return RecipientsOut(recipients=selectors.recipients_count(newsletter=_newsletter(query.newsletterId), label=label))


@post_router.post("/{post_id}/send", response={202: SendReplyOut})
@requires("newsletters.send", CANNOT_SEND)
def send_post(request, post_id: str, payload: SendIn):
    post = post_get(post_id)
    newsletter = _newsletter(payload.newsletterId)
    label = label_get(payload.labelId) if payload.labelId else None
    send = services.send_create(post=post, newsletter=newsletter, label=label, subject=payload.subject,
                                actor=request.auth,
                                recipients=selectors.recipients_count(newsletter=newsletter, label=label))
    message = ("The post is being sent" if send.status == "queued"
               else "The post will be sent when it is published")
    return 202, SendReplyOut(message=message, send=SendOut.of(send))


@post_router.post("/{post_id}/send/test", response={202: MessageOut})
@requires("newsletters.send", CANNOT_SEND)
def send_test(request, post_id: str, payload: TestSendIn):
    """The post's email as the newsletter sends it, to the signed-in user's own address."""
    services.send_test_request(post=post_get(post_id), newsletter=_newsletter(payload.newsletterId),
                               to=request.auth.email, actor=request.auth)
    return 202, MessageOut(message=f"A test email is on its way to {request.auth.email}")


@post_router.get("/{post_id}/sends", response=SendListOut)
@requires("members.read", CANNOT_READ)
def list_sends(request, post_id: str):
    post_get(post_id)
    return SendListOut(sends=[SendOut.of(send) for send in selectors.sends_of_post(post_id)])


ROUTES = [("/newsletters", router), ("/posts", post_router)]
