"""Imports and exports of a company's blog (tenant schema)."""
from __future__ import annotations

import uuid

from django.db import models


class ImportJob(models.Model):
    """One uploaded export file, from its dry run to the end of its import. `active` is True while
    the job is queued or running and NULL otherwise: its unique index lets one import run per
    company at a time."""

    class Status(models.TextChoices):
        ANALYSED = "analysed", "Dry run done"  # parsed, nothing written; waiting for "Import"
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        COMPLETED = "completed", "Completed"
        FAILED = "failed", "Failed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    source = models.CharField(max_length=16)  # wordpress or ghost
    source_version = models.CharField(max_length=40, blank=True, default="")
    file_name = models.CharField(max_length=255, blank=True, default="")
    file_size = models.PositiveBigIntegerField(default=0)
    file_key = models.CharField(max_length=500)  # the uploaded file in the media storage
    # the images archive uploaded beside the export (a zip of content/images or wp-content/uploads)
    images_key = models.CharField(max_length=500, blank=True, default="")
    images_name = models.CharField(max_length=255, blank=True, default="")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ANALYSED)
    active = models.BooleanField(null=True, unique=True)
    phase = models.CharField(max_length=32, blank=True, default="")
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    plan = models.JSONField(default=dict)  # the dry run: counts per kind, conflicts, unsupported content
    report = models.JSONField(default=dict)  # counts per kind and outcome, and every item not brought over
    error = models.TextField(blank=True, default="")
    created_by = models.ForeignKey("accounts.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)


class SourceItem(models.Model):
    """What an item of a source became: (source, kind, source id) -> the object here. A re-run of
    the same file, or a resumed one, finds its items here and updates them instead of adding more."""

    id = models.BigAutoField(primary_key=True)
    source = models.CharField(max_length=300)  # "wordpress:<site URL>" or "ghost:<site>"
    kind = models.CharField(max_length=16)  # post, page, category, tag, author, image
    source_id = models.CharField(max_length=500)
    object_id = models.UUIDField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["source", "kind", "source_id"], name="portability_item_uniq")]


class Redirect(models.Model):
    """An old address of an imported post (a path of the old site: `/2008/09/hello/`, `/?p=12`)."""

    id = models.BigAutoField(primary_key=True)
    old_path = models.CharField(max_length=2000, unique=True)
    post = models.ForeignKey("content.Post", on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("old_path",)


class MissingImage(models.Model):
    """An image an import could not bring (not in the archive, not fetched): the post keeps its
    old address (in its content, or here for its featured, Open Graph or Twitter image, which are
    media of the company once brought) until a later "Fetch missing images" brings it."""

    class Role(models.TextChoices):
        CONTENT = "content", "In the content"
        FEATURED = "featured_image", "Featured image"
        OG = "og_image", "Open Graph image"
        TWITTER = "twitter_image", "Twitter image"

    id = models.BigAutoField(primary_key=True)
    job = models.ForeignKey(ImportJob, null=True, blank=True, on_delete=models.SET_NULL, related_name="missing_images")
    post = models.ForeignKey("content.Post", on_delete=models.CASCADE, related_name="+")
    url = models.CharField(max_length=2000)
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.CONTENT)
    alt_text = models.CharField(max_length=500, blank=True, default="")
    reason = models.CharField(max_length=500, blank=True, default="")
    attempts = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("post_id", "id")
        constraints = [models.UniqueConstraint(fields=["post", "role", "url"], name="portability_missing_uniq")]


class ExportJob(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        COMPLETED = "completed", "Completed"
        FAILED = "failed", "Failed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    file_key = models.CharField(max_length=500, blank=True, default="")
    file_size = models.PositiveBigIntegerField(default=0)
    counts = models.JSONField(default=dict)
    error = models.TextField(blank=True, default="")
    created_by = models.ForeignKey("accounts.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
