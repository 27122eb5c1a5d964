"""Writes of newsletters and of their sends (docs/newsletters.md)."""
from __future__ import annotations

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.content import kinds
from apps.content.models import Post
from apps.core import outbox, ratelimit
from apps.core.errors import Conflict, ValidationFailed
from apps.core.text import slugify
from apps.newsletters.names import SEND_TASK, TEST_TASK, outbox_key
from apps.newsletters.models import Newsletter, Send
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
