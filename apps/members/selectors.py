"""Reads of members and labels."""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from apps.core.errors import ValidationFailed
from apps.core.selectors import as_uuid, get_or_404
from apps.members.models import Label, Member

MEMBER_NOT_FOUND = "Member not found"
LABEL_NOT_FOUND = "Label not found"
NO_NEWSLETTER = "none"  # ?newsletter=none: members subscribed to no newsletter


@dataclass(frozen=True)
class MemberFilter:
    """What the members list and its export are narrowed to (every field optional)."""

    search: str = ""
    label: str = ""  # a label's id
    status: str = ""  # free, comped
    newsletter: str = ""  # a newsletter's id, or "none"
    email_disabled: bool | None = None


def _uuid_or_400(value: str, field: str, message: str):
    found = as_uuid(value)
    if found is None:
        raise ValidationFailed(message, field=field)
    return found


def member_list(wanted: MemberFilter = MemberFilter()) -> QuerySet[Member]:
    """The company's members, newest first, with their labels and newsletters (two queries for a
    whole page)."""
    members = Member.objects.all()
    if wanted.search:
        members = members.filter(Q(email__icontains=wanted.search) | Q(name__icontains=wanted.search))
    if wanted.label:
        label = _uuid_or_400(wanted.label, "label", LABEL_NOT_FOUND)
        members = members.filter(Exists(Member.labels.through.objects.filter(member_id=OuterRef("pk"),
                                                                            label_id=label)))
    if wanted.status:
        if wanted.status not in Member.Status.values:
            raise ValidationFailed("Status must be free or comped", field="status")
        members = members.filter(status=wanted.status)
    subscriptions = Member.newsletters.through.objects.filter(member_id=OuterRef("pk"))
    if wanted.newsletter == NO_NEWSLETTER:
        members = members.filter(~Exists(subscriptions))
    elif wanted.newsletter:
        newsletter = _uuid_or_400(wanted.newsletter, "newsletter", "Newsletter not found")
        members = members.filter(Exists(subscriptions.filter(newsletter_id=newsletter)))
    if wanted.email_disabled is not None:
        members = members.filter(email_disabled=wanted.email_disabled)
    return members.prefetch_related("labels", "newsletters").order_by("-created_at", "-id")


def member_get(member_id) -> Member:
    return get_or_404(Member.objects.prefetch_related("labels", "newsletters"), member_id, MEMBER_NOT_FOUND)


def label_list() -> QuerySet[Label]:
    return Label.objects.annotate(member_count=Count("members")).order_by("name", "id")


def label_get(label_id) -> Label:
    return get_or_404(Label.objects.all(), label_id, LABEL_NOT_FOUND)


def member_newsletter_ids(member: Member) -> list[str]:
    return [str(pk) for pk in Member.newsletters.through.objects.filter(member_id=member.pk)
            .values_list("newsletter_id", flat=True)]
