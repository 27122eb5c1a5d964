"""Reads of a company's newsletters."""
from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from apps.core.errors import ValidationFailed
from apps.core.selectors import as_uuid, get_or_404
from apps.members.models import Member
from apps.newsletters.models import Delivery, Newsletter, Send

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
