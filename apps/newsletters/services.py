"""Writes of newsletters and of their sends (docs/newsletters.md)."""
from __future__ import annotations

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from apps.content import kinds
from apps.content.models import Post
from apps.core import events, outbox, ratelimit
from apps.core.errors import Conflict, ValidationFailed
from apps.core.text import slugify
from apps.newsletters.names import SEND_TASK, TEST_TASK, outbox_key
from apps.newsletters.models import Engagement, Newsletter, NewsletterSettings, Send
from apps.plans.rules import plan_check

FIRST_NAME = "Newsletter"
NAME_TAKEN = "A newsletter with this name already exists"
ONLY_POSTS = "Only posts are sent by email"
NOT_PUBLISHED = "Publish or schedule the post first: a draft is not sent"
ALREADY_SENT = "This post was sent to this newsletter already"
ARCHIVED = "This newsletter is archived: nothing is sent to it"
NOT_CANCELLABLE = "Only a send waiting for its post to be published can be cancelled"
TEST_THROTTLED = "Too many test emails. Please try again in {wait}."


def newsletter_first_ensure() -> None:
    """A company has one newsletter from the moment one is needed (its readers join it by default):
    made when the company has none at all. (Not a row of the provisioning template: every company's
    newsletter has its own id.)"""
    if Newsletter.objects.exists():
        return
    try:
        with transaction.atomic():
            Newsletter.objects.create(name=FIRST_NAME, slug="newsletter")
    except IntegrityError:  # made at this very moment by another request
        pass


def newsletters_default() -> list[Newsletter]:
    """The active newsletters a new reader joins when they name none."""
    newsletter_first_ensure()
    return list(Newsletter.objects.filter(status=Newsletter.Status.ACTIVE, default_on_signup=True))


def _slug_for(name: str, exclude=None) -> str:
    base = slugify(name, allow_unicode=True)[:180] or "newsletter"
    taken = set(Newsletter.objects.exclude(pk=exclude).filter(slug__startswith=base).values_list("slug", flat=True))
    slug, n = base, 2
    while slug.lower() in {t.lower() for t in taken}:
        slug, n = f"{base}-{n}", n + 1
    return slug


FIELDS = ("name", "description", "sender_name", "reply_to", "header_image", "footer", "default_on_signup", "status",
          "sort_order")


@transaction.atomic
def newsletter_create(**fields) -> Newsletter:
    newsletter_first_ensure()
    if Newsletter.objects.filter(name__iexact=fields["name"]).exists():
        raise Conflict(NAME_TAKEN)
    return Newsletter.objects.create(slug=_slug_for(fields["name"]), **fields)


@transaction.atomic
def newsletter_update(*, newsletter: Newsletter, **changes) -> Newsletter:
    newsletter = Newsletter.objects.select_for_update().get(pk=newsletter.pk)
    for name, value in changes.items():
        if name not in FIELDS:
            raise TypeError(f"newsletter_update: unknown field {name}")
        if value is None:
            continue
        if name == "name" and Newsletter.objects.filter(name__iexact=value).exclude(pk=newsletter.pk).exists():
            raise Conflict(NAME_TAKEN)
        setattr(newsletter, name, value)
    newsletter.save()
    return newsletter


# --- sends ----------------------------------------------------------------------------------------------
def _sendable(post: Post, newsletter: Newsletter) -> None:
    if post.kind != kinds.POST.name:
        raise ValidationFailed(ONLY_POSTS, field="postId")
    if newsletter.status != Newsletter.Status.ACTIVE:
        raise ValidationFailed(ARCHIVED, field="newsletterId")
    if post.status != Post.Status.PUBLISHED and not post.publish_scheduled:
        raise Conflict(NOT_PUBLISHED)


@transaction.atomic
def send_create(*, post: Post, newsletter: Newsletter, label=None, subject: str = "", actor=None,
                recipients: int) -> Send:
    """Email a published post to the newsletter's members (of `label`), or, for a scheduled post,
    when it is published. Refused (403 plan_limit) when `recipients` emails would pass the month's
    emails; 409 when the post went to this newsletter already."""
    _sendable(post, newsletter)
    plan_check("emails_per_month", recipients)
    published = post.status == Post.Status.PUBLISHED
    try:
        with transaction.atomic():
            send = Send.objects.create(
                post=post, post_title=post.title, newsletter=newsletter, label=label,
                label_name=label.name if label else "", subject=subject or post.title, created_by=actor,
                status=Send.Status.QUEUED if published else Send.Status.SCHEDULED)
    except IntegrityError as exc:
        raise Conflict(ALREADY_SENT) from exc
    if published:
        send_queue(send)
    return send


def send_queue(send: Send) -> None:
    """Hand a queued send to its task, after the commit (the outbox: sent again if a worker dies)."""
    outbox.outbox_add(task=SEND_TASK, args=[str(send.pk)], key=outbox_key(send.pk),
                      lease=settings.NEWSLETTER_SEND_LEASE_SECONDS)


def sends_start_for_posts(post_ids) -> int:
    """The scheduled sends of these posts, now published, are queued (the publish's transaction)."""
    sends = list(Send.objects.select_for_update().filter(post_id__in=list(post_ids), status=Send.Status.SCHEDULED))
    for send in sends:
        send.status = Send.Status.QUEUED
        send.save(update_fields=["status"])
        send_queue(send)
    return len(sends)


@transaction.atomic
def send_cancel(*, send: Send) -> Send:
    send = Send.objects.select_for_update().get(pk=send.pk)
    if send.status != Send.Status.SCHEDULED:
        raise Conflict(NOT_CANCELLABLE)
    send.status, send.finished_at = Send.Status.CANCELLED, timezone.now()
    send.save(update_fields=["status", "finished_at"])
    return send


def send_test_request(*, post: Post, newsletter: Newsletter, to: str, actor) -> None:
    """A test email of the post as this newsletter sends it, to a staff member's own address."""
    if post.kind != kinds.POST.name:
        raise ValidationFailed(ONLY_POSTS, field="postId")
    ratelimit.spend([(ratelimit.parse_rate(settings.NEWSLETTER_TEST_RATE), ("newsletter-test", str(actor.pk)))],
                    TEST_THROTTLED)
    outbox.outbox_add(task=TEST_TASK, kwargs={"post_id": str(post.pk), "newsletter_id": str(newsletter.pk), "to": to})


# --- opens and clicks (apps.newsletters.tracking) -----------------------------------------------------------
@transaction.atomic
def newsletter_settings_update(*, client, actor=None, track_opens: bool | None = None,
                               track_clicks: bool | None = None) -> NewsletterSettings:
    """Turn the counting of opens and clicks on or off (None: as it is) for the sends that start
    from now on; a send keeps what it tracked when it started. The change is in the audit log."""
    NewsletterSettings.objects.bulk_create([NewsletterSettings()], ignore_conflicts=True)
    row = NewsletterSettings.objects.select_for_update().get(pk=NewsletterSettings.ROW)
    changed = []
    for field, value in (("track_opens", track_opens), ("track_clicks", track_clicks)):
        if value is not None and getattr(row, field) != value:
            setattr(row, field, value)
            changed.append(field)
    if changed:
        row.save()
        summary = (f"newsletters: opens {'counted' if row.track_opens else 'not counted'}, "
                   f"clicks {'counted' if row.track_clicks else 'not counted'}")
        events.publish(events.CompanyChanged(client=client, change="settings", actor=actor, summary=summary,
                                             public=False))  # no public reply shows it
    return row


# One statement: the hit counts only for a send that tracks its kind and a member of the company
# (a member deleted since counts nothing); concurrent hits of the same row end in one row, counted
# once each (ON CONFLICT waits for the other insert, then adds to it). A click also counts in the
# member's row of any link (ANY_LINK), written first, in the order of the links, by every hit.
_HIT = """
INSERT INTO newsletters_engagement (send_id, member_id, kind, link, count, first_at, last_at)
SELECT s.id, m.id, %(kind)s, l.link, 1, clock_timestamp(), clock_timestamp()
FROM newsletters_send s
JOIN members_member m ON m.id = %(member)s
CROSS JOIN unnest(%(links)s::integer[]) AS l(link)
WHERE s.id = %(send)s AND s.{tracks}
ORDER BY l.link
ON CONFLICT (send_id, member_id, kind, link)
DO UPDATE SET count = newsletters_engagement.count + 1, last_at = EXCLUDED.last_at"""


def engagement_record(*, send_id, member_id, kind: str, link: int = Engagement.ANY_LINK) -> bool:
    """Count a member's open of a send's email, or click of its link `link`; False when nothing
    was counted (the send does not track it, or the member is gone)."""
    if kind == Engagement.Kind.OPEN:
        tracks, links = "track_opens", [Engagement.ANY_LINK]
    elif kind == Engagement.Kind.CLICK and link != Engagement.ANY_LINK:
        tracks, links = "track_clicks", [Engagement.ANY_LINK, link]
    else:
        raise ValueError(f"engagement_record: {kind} of link {link}")
    with connection.cursor() as cursor:
        cursor.execute(_HIT.format(tracks=tracks), {"kind": kind, "member": member_id, "send": send_id,
                                                    "links": links})
        return cursor.rowcount > 0
