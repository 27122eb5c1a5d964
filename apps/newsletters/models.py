"""A company's newsletters and their sends (docs/newsletters.md), in the company's schema.

A newsletter is a list readers subscribe to (apps.members.Member.newsletters) and a look for the
emails sent to it: the sender's name, a reply-to address, a header image and a footer. New
sign-ups from the website are subscribed to the newsletters marked `default_on_signup` when they
name none.

A send is one post emailed to one newsletter's members (all, or those of a label): its email is
rendered once (`html`, `text`, with markers where each member's own links go) and each member has
one Delivery row, the unit of work the senders claim (SELECT ... FOR UPDATE SKIP LOCKED, with a
lease: apps.newsletters.delivery).

Opens and clicks (apps.newsletters.tracking) are counted only when the company turned them on
(NewsletterSettings) when a send started: the send records what it tracks (`track_opens`,
`track_clicks`), its links (SendLink: where each rewritten link leads) and one Engagement row per
member, kind and link with the first time and a count.
"""
from __future__ import annotations

import uuid

from django.db import models
from django.db.models.functions import Lower

NAME_MAX = 191
FOOTER_MAX = 2000
IMAGE_MAX = 2000


class Newsletter(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        ARCHIVED = "archived", "Archived"  # kept with its sends; nobody can subscribe to it or send to it

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=NAME_MAX)
    slug = models.SlugField(max_length=NAME_MAX, allow_unicode=True)
    description = models.CharField(max_length=2000, blank=True, default="")
    # The From header's name (the address is the product's: NEWSLETTER_FROM_EMAIL); empty: the site's title.
    sender_name = models.CharField(max_length=NAME_MAX, blank=True, default="")
    reply_to = models.EmailField(max_length=254, blank=True, default="")
    # A media id of the company's library or an http(s) address (as the site settings' images).
    header_image = models.CharField(max_length=IMAGE_MAX, blank=True, default="")
    footer = models.TextField(max_length=FOOTER_MAX, blank=True, default="")  # plain text, shown escaped
    default_on_signup = models.BooleanField(default=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    sort_order = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("sort_order", "created_at", "id")
        constraints = [models.UniqueConstraint(Lower("slug"), name="newsletters_slug_uniq")]

    def __str__(self) -> str:
        return self.name


class Send(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Waiting for the post to be published"
        QUEUED = "queued", "Queued"
        SENDING = "sending", "Sending"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"  # refused before it started (the plan's emails), or its email could not be made
        CANCELLED = "cancelled", "Cancelled"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    post = models.ForeignKey("content.Post", null=True, on_delete=models.SET_NULL, related_name="+")
    post_title = models.CharField(max_length=500, blank=True, default="")  # kept when the post is deleted
    newsletter = models.ForeignKey(Newsletter, on_delete=models.PROTECT, related_name="sends")
    label = models.ForeignKey("members.Label", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    label_name = models.CharField(max_length=NAME_MAX, blank=True, default="")
    subject = models.CharField(max_length=500)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    html = models.TextField(blank=True, default="")  # rendered once, when the send starts
    text = models.TextField(blank=True, default="")
    recipients = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True, default="")
    # What the email counts, as the company's settings said when the send started (never changed after).
    track_opens = models.BooleanField(default=False)
    track_clicks = models.BooleanField(default=False)
    created_by = models.ForeignKey("accounts.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
        constraints = [
            # A post goes to a newsletter once (a failed or cancelled send may be asked for again).
            models.UniqueConstraint(fields=["post", "newsletter"], name="newsletters_send_once",
                                    condition=~models.Q(status="failed") & ~models.Q(status="cancelled")),
        ]


class Delivery(models.Model):
    """One member's email of a send. `lease_until`: the row is being sent by `claimed_by` until then
    (a sender that died leaves it to be claimed again after it); `attempts` counts the tries."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting"
        SENT = "sent", "Delivered to the provider"
        FAILED = "failed", "Failed"
        BOUNCED = "bounced", "Bounced"
        COMPLAINED = "complained", "Marked as spam"
        SKIPPED = "skipped", "Not sent: unsubscribed, disabled or deleted meanwhile"

    id = models.BigAutoField(primary_key=True)
    send = models.ForeignKey(Send, on_delete=models.CASCADE, related_name="deliveries")
    member = models.ForeignKey("members.Member", null=True, on_delete=models.SET_NULL, related_name="+")
    email = models.CharField(max_length=254)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    lease_until = models.DateTimeField(null=True, blank=True)
    claimed_by = models.CharField(max_length=64, blank=True, default="")
    sent_at = models.DateTimeField(null=True, blank=True)
    error = models.CharField(max_length=500, blank=True, default="")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["send", "member"], name="newsletters_delivery_once")]
        indexes = [models.Index(fields=["send", "status", "id"], name="newsletters_delivery_todo_idx")]


class NewsletterSettings(models.Model):
    """The company's newsletter settings: one row (id 1), made when first changed. Opens and clicks
    are not counted unless an admin turns them on (docs/newsletters.md#opens-and-clicks)."""

    ROW = 1

    id = models.PositiveSmallIntegerField(primary_key=True, default=ROW, editable=False)
    track_opens = models.BooleanField(default=False)
    track_clicks = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=models.Q(id=1), name="newsletters_settings_one_row")]


class SendLink(models.Model):
    """A link of a send's email whose clicks are counted: the email leads to
    /email/click/<send>/<index>/<token>, which redirects to `url` (read here, never from the request)."""

    id = models.BigAutoField(primary_key=True)
    send = models.ForeignKey(Send, on_delete=models.CASCADE, related_name="links")
    index = models.PositiveIntegerField()  # 1, 2, ... in the order of the email
    url = models.TextField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["send", "index"], name="newsletters_sendlink_once")]


class Engagement(models.Model):
    """A member's opens of a send's email, or clicks of one of its links (`link`: the SendLink's
    index; ANY_LINK: of any of them, one row per member who clicked): the first time, the last and
    how many times. A deleted member's rows stay, nameless, in the send's counts."""

    ANY_LINK = 0  # opens, and the member's clicks of any link

    class Kind(models.TextChoices):
        OPEN = "open", "Opened"
        CLICK = "click", "Clicked"

    id = models.BigAutoField(primary_key=True)
    send = models.ForeignKey(Send, on_delete=models.CASCADE, related_name="+")
    member = models.ForeignKey("members.Member", null=True, on_delete=models.SET_NULL, related_name="+")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    link = models.PositiveIntegerField(default=0)
    count = models.PositiveIntegerField(default=1)
    first_at = models.DateTimeField()
    last_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["send", "member", "kind", "link"],
                                               name="newsletters_engagement_once")]
