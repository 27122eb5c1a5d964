"""Writes of members and labels (docs/members.md). Each member added takes one of the plan's
`members` (apps.plans.rules, in the write's transaction); a deletion gives it back."""
from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models.functions import Lower
from django.utils import timezone

from apps.core import events
from apps.core.errors import Conflict, ErrorCode, ValidationFailed
from apps.members.events import MemberChanged
from apps.members.models import Label, Member
from apps.newsletters.models import Newsletter
from apps.newsletters.selectors import newsletters_active
from apps.newsletters.services import newsletters_default
from apps.plans.rules import plan_release, plan_spend

EMAIL_TAKEN = "A member with this email already exists"
LABEL_TAKEN = "A label with this name already exists"
BULK_MAX = 1000


def labels_named(names: Iterable[str]) -> list[Label]:
    """The labels of these names (case-insensitive), made when missing."""
    wanted: dict[str, str] = {}
    for name in names:
        name = " ".join((name or "").split())
        if name and name.lower() not in wanted:
            wanted[name.lower()] = name
    if not wanted:
        return []
    found = {label.name.lower(): label for label in
             Label.objects.annotate(lower=Lower("name")).filter(lower__in=list(wanted))}
    missing = [Label(name=name) for key, name in wanted.items() if key not in found]
    if missing:
        Label.objects.bulk_create(missing, ignore_conflicts=True)
        found = {label.name.lower(): label for label in
                 Label.objects.annotate(lower=Lower("name")).filter(lower__in=list(wanted))}
    return [found[key] for key in wanted if key in found]


def _newsletters(ids) -> list[Newsletter]:
    return newsletters_default() if ids is None else newsletters_active(ids)


@transaction.atomic
def member_create(*, email: str, name: str = "", note: str = "", status: str = Member.Status.FREE,
                  labels: Iterable[str] = (), newsletter_ids: list | None = None, source: str = Member.Source.ADMIN,
                  consent_at: datetime | None = None, consent_ip: str | None = None, actor=None) -> Member:
    """A new member (409 email_taken when the address is a member's already). `newsletter_ids`
    None: the newsletters new readers join by default."""
    newsletters = _newsletters(newsletter_ids)
    if Member.objects.filter(email=email).exists():
        raise Conflict(EMAIL_TAKEN, detail=ErrorCode.EMAIL_TAKEN)
    plan_spend("members")
    try:
        with transaction.atomic():
            member = Member.objects.create(email=email, name=name, note=note, status=status, source=source,
                                           consent_at=consent_at, consent_ip=consent_ip, created_at=timezone.now())
    except IntegrityError as exc:  # the same address added at the same moment
        raise Conflict(EMAIL_TAKEN, detail=ErrorCode.EMAIL_TAKEN) from exc
    member.labels.set(labels_named(labels))
    member.newsletters.set(newsletters)
    events.publish(MemberChanged(member_id=member.pk, email=member.email, change="created", actor=actor,
                                 summary=member.email))
    return member


UPDATABLE = ("email", "name", "note", "status", "email_disabled")


@transaction.atomic
def member_update(*, member: Member, actor=None, labels: Iterable[str] | None = None,
                  newsletter_ids: list | None = None, **changes) -> Member:
    """Change the fields given (None: left as it is). A new address ends the member's website
    sessions; turning `email_disabled` off clears its reason."""
    member = Member.objects.select_for_update().get(pk=member.pk)
    unknown = set(changes) - set(UPDATABLE)
    if unknown:
        raise TypeError(f"member_update: unknown fields {sorted(unknown)}")
    fields = []
    for name, value in changes.items():
        if value is None or getattr(member, name) == value:
            continue
        if name == "email" and Member.objects.filter(email=value).exclude(pk=member.pk).exists():
            raise Conflict(EMAIL_TAKEN, detail=ErrorCode.EMAIL_TAKEN)
        setattr(member, name, value)
        fields.append(name)
    if "email" in fields:
        member.session_version += 1
        fields.append("session_version")
    if "email_disabled" in fields and not member.email_disabled:
        member.email_disabled_reason = ""
        fields.append("email_disabled_reason")
    if fields:
        try:
            with transaction.atomic():
                member.save(update_fields=[*fields, "updated_at"])
        except IntegrityError as exc:
            raise Conflict(EMAIL_TAKEN, detail=ErrorCode.EMAIL_TAKEN) from exc
    if labels is not None:
        member.labels.set(labels_named(labels))
    if newsletter_ids is not None:
        member.newsletters.set(newsletters_active(newsletter_ids))
    events.publish(MemberChanged(member_id=member.pk, email=member.email, change="updated", actor=actor,
                                 summary=member.email))
    return member


@transaction.atomic
def member_delete(*, member: Member, actor=None) -> None:
    deleted, _ = Member.objects.filter(pk=member.pk).delete()
    if deleted:
        plan_release("members")
        events.publish(MemberChanged(member_id=member.pk, email=member.email, change="deleted", actor=actor,
                                     summary=member.email))


@transaction.atomic
def members_label(*, member_ids: list, add: Iterable[str] = (), remove: Iterable = (), actor=None) -> int:
    """Add the labels named `add` (made when missing) to these members and take the labels of ids
    `remove` off them; returns how many of the members are the company's."""
    ids = list(Member.objects.filter(pk__in=member_ids).values_list("pk", flat=True))
    through = Member.labels.through
    adding = labels_named(add)
    if adding and ids:
        through.objects.bulk_create([through(member_id=mid, label_id=label.pk) for mid in ids for label in adding],
                                    ignore_conflicts=True)
    remove = list(remove)
    if remove and ids:
        through.objects.filter(member_id__in=ids, label_id__in=remove).delete()
    if ids:
        Member.objects.filter(pk__in=ids).update(updated_at=timezone.now())
        events.publish(MemberChanged(member_id=None, email="", change="updated", actor=actor,
                                     summary=f"labels of {len(ids)} members"))
    return len(ids)


def label_create(*, name: str) -> Label:
    if Label.objects.annotate(lower=Lower("name")).filter(lower=name.lower()).exists():
        raise Conflict(LABEL_TAKEN)
    try:
        with transaction.atomic():
            return Label.objects.create(name=name)
    except IntegrityError as exc:
        raise Conflict(LABEL_TAKEN) from exc


def label_update(*, label: Label, name: str) -> Label:
    if Label.objects.annotate(lower=Lower("name")).filter(lower=name.lower()).exclude(pk=label.pk).exists():
        raise Conflict(LABEL_TAKEN)
    label.name = name
    try:
        with transaction.atomic():
            label.save(update_fields=["name"])
    except IntegrityError as exc:
        raise Conflict(LABEL_TAKEN) from exc
    return label


def label_delete(*, label: Label) -> None:
    label.delete()


def bulk_ids_check(ids: list) -> None:
    if not ids:
        raise ValidationFailed("Choose at least one member", field="memberIds")
    if len(ids) > BULK_MAX:
        raise ValidationFailed(f"At most {BULK_MAX} members at a time", field="memberIds")
