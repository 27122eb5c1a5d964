"""Reads of a company's newsletters."""
from __future__ import annotations

from django.db.models import Count, Q, QuerySet, Sum

from apps.core.errors import ValidationFailed
from apps.core.selectors import as_uuid, get_or_404
from apps.members.models import Member
from apps.newsletters.models import Delivery, Engagement, Newsletter, NewsletterSettings, Send, SendLink

NEWSLETTER_NOT_FOUND = "Newsletter not found"
SEND_NOT_FOUND = "Send not found"


def newsletter_list(*, include_archived: bool = True) -> QuerySet[Newsletter]:
    newsletters = Newsletter.objects.all()
    return newsletters if include_archived else newsletters.filter(status=Newsletter.Status.ACTIVE)


def newsletter_get(newsletter_id) -> Newsletter:
    return get_or_404(Newsletter.objects.all(), newsletter_id, NEWSLETTER_NOT_FOUND)


def newsletters_active(ids, *, field: str = "newsletters") -> list[Newsletter]:
    """The active newsletters of these ids, in the company's order; 400 naming `field` for an id
    that is not one of them (another company's, archived, not an id)."""
    wanted = [as_uuid(value) for value in ids or []]
    if None in wanted:
        raise ValidationFailed(NEWSLETTER_NOT_FOUND, field=field)
    found = list(Newsletter.objects.filter(pk__in=wanted, status=Newsletter.Status.ACTIVE))
    if len(found) != len(set(wanted)):
        raise ValidationFailed(NEWSLETTER_NOT_FOUND, field=field)
    return found


def recipients_count(*, newsletter: Newsletter, label=None) -> int:
    """How many members a send to this newsletter (and label) would email now: its subscribers
    whose email is not disabled."""
    members = Member.objects.filter(email_disabled=False, newsletters=newsletter)
    if label is not None:
        members = members.filter(labels=label)
    return members.count()


def sends_of_post(post_id) -> QuerySet[Send]:
    return Send.objects.filter(post_id=post_id).select_related("newsletter").order_by("-created_at")


def send_get(send_id) -> Send:
    return get_or_404(Send.objects.select_related("newsletter"), send_id, SEND_NOT_FOUND)


def newsletter_list_counted() -> QuerySet[Newsletter]:
    """Every newsletter with `member_count`: its subscribers whose email is not disabled."""
    return Newsletter.objects.annotate(member_count=Count("members", filter=Q(members__email_disabled=False)))


def send_report(send: Send) -> dict:
    """Counts per delivery status, and the most frequent reasons of the failures."""
    counts = dict(Delivery.objects.filter(send=send).values_list("status").annotate(n=Count("id")).values_list(
        "status", "n"))
    reasons = list(Delivery.objects.filter(send=send, status__in=[Delivery.Status.FAILED, Delivery.Status.BOUNCED,
                                                                   Delivery.Status.COMPLAINED])
                   .values("status", "error").annotate(n=Count("id")).order_by("-n")[:20])
    return {"counts": {status: counts.get(status, 0) for status in Delivery.Status.values}, "reasons": reasons}


# --- opens and clicks (apps.newsletters.tracking) -----------------------------------------------------------
TOP_LINKS = 20


def newsletter_settings_get() -> NewsletterSettings:
    """The company's newsletter settings (the defaults, unsaved, until an admin changes them)."""
    return NewsletterSettings.objects.filter(pk=NewsletterSettings.ROW).first() or NewsletterSettings()


def send_link_url(send_id, index) -> str | None:
    """Where link `index` of a send's email leads, or None: no such send or link in this company."""
    send = as_uuid(send_id)
    if send is None or not isinstance(index, int) or not 0 < index < 2**31:
        return None
    return SendLink.objects.filter(send_id=send, index=index).values_list("url", flat=True).first()


def send_tracking_report(send: Send) -> dict:
    """What a send's email counted: members who opened it, members who clicked, and the clicks of its
    most clicked links ({index, url, members, clicks}); None for what it did not track."""
    opened = clicked = None
    links: list[dict] = []
    if send.track_opens:
        opened = Engagement.objects.filter(send=send, kind=Engagement.Kind.OPEN).count()
    if send.track_clicks:
        clicks = Engagement.objects.filter(send=send, kind=Engagement.Kind.CLICK)
        clicked = clicks.filter(link=Engagement.ANY_LINK).count()  # one row per member who clicked any link
        per_link = list(clicks.exclude(link=Engagement.ANY_LINK).values("link")
                        .annotate(members=Count("id"), clicks=Sum("count")).order_by("-clicks", "link")[:TOP_LINKS])
        urls = dict(SendLink.objects.filter(send=send, index__in=[row["link"] for row in per_link])
                    .values_list("index", "url"))
        links = [{"index": row["link"], "url": urls.get(row["link"], ""), "members": row["members"],
                  "clicks": row["clicks"]} for row in per_link]
    return {"opens": send.track_opens, "clicks": send.track_clicks, "opened": opened, "clicked": clicked,
            "links": links}
