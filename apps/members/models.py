"""A company's readers (docs/members.md), in the company's schema. Members are not staff: they
have no password and never sign in to the dashboard; a member signs in to the company's website
with an emailed link (apps.members.tokens) and reads members-only posts with the short-lived
token it is exchanged for.

- `email` is stored in lower case and unique in the company (so unique whatever its case).
- `status`: free, or comped (given access by the company; there are no paid members).
- `email_disabled`: the provider reported a bounce or a complaint (`email_disabled_reason`);
  no newsletter is sent to the address until someone clears it.
- `source`: how the member came: the website's sign-up form, an import, or added by staff.
- `consent_at` and `consent_ip`: when and from where the member confirmed the subscription (the
  double opt-in link), or what the import said.
- `session_version`: bumped to end every member token of the member at once (an address change,
  a deletion makes the member gone anyway).
"""
from __future__ import annotations

import uuid

from django.db import models
from django.db.models.functions import Lower

NAME_MAX = 191
NOTE_MAX = 2000
EMAIL_MAX = 254
REASON_MAX = 500


class Label(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=NAME_MAX)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("name", "id")
        constraints = [models.UniqueConstraint(Lower("name"), name="members_label_name_uniq")]

    def __str__(self) -> str:
        return self.name


class Member(models.Model):
    class Status(models.TextChoices):
        FREE = "free", "Free"
        COMPED = "comped", "Complimentary"

    class Source(models.TextChoices):
        WEBSITE = "website", "Website"
        IMPORT = "import", "Import"
        ADMIN = "admin", "Added by staff"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    email = models.CharField(max_length=EMAIL_MAX, unique=True)  # lower case (apps.core.validation.clean_email)
    name = models.CharField(max_length=NAME_MAX, blank=True, default="")
    note = models.TextField(max_length=NOTE_MAX, blank=True, default="")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.FREE)
    email_disabled = models.BooleanField(default=False)
    email_disabled_reason = models.CharField(max_length=REASON_MAX, blank=True, default="")
    source = models.CharField(max_length=8, choices=Source.choices, default=Source.ADMIN)
    consent_at = models.DateTimeField(null=True, blank=True)
    consent_ip = models.GenericIPAddressField(null=True, blank=True)
    session_version = models.PositiveIntegerField(default=0)
    labels = models.ManyToManyField(Label, related_name="members", blank=True)
    newsletters = models.ManyToManyField("newsletters.Newsletter", related_name="members", blank=True)
    created_at = models.DateTimeField()  # given by an import (the source's sign-up date), else now
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("-created_at", "-id")
        indexes = [
            models.Index(fields=["-created_at", "-id"], name="members_member_created_idx"),
            models.Index(fields=["status"], name="members_member_status_idx"),
        ]

    def __str__(self) -> str:
        return self.email


class UsedLink(models.Model):
    """A one-time link (the sign-up confirmation, the sign-in link) that has been used: its nonce,
    kept until the link would have expired anyway (pruned daily)."""

    nonce = models.CharField(max_length=64, primary_key=True)
    used_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(db_index=True)


class MemberImport(models.Model):
    """One uploaded members CSV (Ghost, Substack, Mailchimp), from its dry run to its end. The file
    is read as a stream (never whole in memory), twice: by the dry run and by the import. `active`
    is True while the job is analysing, queued or running (one at a time per company)."""

    class Status(models.TextChoices):
        ANALYSING = "analysing", "Dry run running"
        ANALYSED = "analysed", "Dry run done"  # nothing written; waiting for "Import"
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        COMPLETED = "completed", "Completed"
        FAILED = "failed", "Failed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    source = models.CharField(max_length=16, blank=True, default="")  # ghost, substack, mailchimp
    file_name = models.CharField(max_length=255, blank=True, default="")
    file_size = models.PositiveBigIntegerField(default=0)
    file_key = models.CharField(max_length=500)  # private storage (apps.media.storage.private_storage)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ANALYSING)
    active = models.BooleanField(null=True, unique=True)
    labels = models.JSONField(default=list)  # label names given to every imported member
    done = models.PositiveBigIntegerField(default=0)  # rows read so far
    plan = models.JSONField(default=dict)  # the dry run's report
    report = models.JSONField(default=dict)  # the import's report
    error = models.TextField(blank=True, default="")
    created_by = models.ForeignKey("accounts.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
