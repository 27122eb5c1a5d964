"""How each counted limit is counted in the connection's company schema (apps.plans.rules.COUNTED,
which imports this module by name when a counter is first needed): once per company, then by the
daily check; never on every write."""
from __future__ import annotations

from django.db.models import Sum

from apps.accounts.seats import seats_held
from apps.content.models import Post
from apps.media.models import Media
from apps.members.models import Member
from apps.webhooks.models import WebhookEndpoint


def staff_seats() -> int:
    return seats_held()  # the accounts that take a seat (apps.accounts.seats: the rule)


def posts() -> int:
    return Post.objects.count()


def media_bytes() -> int:
    return Media.objects.aggregate(total=Sum("file_size"))["total"] or 0


def webhook_endpoints() -> int:
    return WebhookEndpoint.objects.count()


def members() -> int:
    return Member.objects.count()
