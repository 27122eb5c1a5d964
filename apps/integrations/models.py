"""A company's integrations (docs/publishing-from-tools.md): a named outside tool with its own keys in
Ghost's forms, a Content API key (26 hex digits, read-only, /ghost/api/content/) and an Admin API key
(`id:secret`, a 24-hex-digit id and a 64-hex-digit secret, /ghost/api/admin/).

How the keys are kept:
- a Content API key is compared only: its SHA-256 is stored, with its last four digits as a hint.
  The company's first integration (`company_key`) has the company's own Ghost content key
  (tenants.models.Client.ghost_content_key), kept where it always was: the public API's WSGI layer
  reads it from its host map, and Settings -> Rotate API Key rotates it with the content key.
- an Admin API key's secret signs the tool's tokens (HS256), so it must be read back to check them:
  it is stored encrypted (Fernet, a key derived from SECRET_KEY and its fallbacks:
  apps.integrations.secrets), never in clear; its id is the token's `kid`.
Either key is shown in full once, when it is made (creation, rotation), then only its hint.
"""
from __future__ import annotations

import uuid

from django.db import models
from django.db.models import Q

NAME_MAX = 191


class Integration(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=NAME_MAX)
    # The company's own Ghost content key is this integration's Content API key (at most one such row).
    company_key = models.BooleanField(default=False)
    content_key_hash = models.CharField(max_length=64, blank=True, default="")  # SHA-256 hex; "" for company_key
    content_key_hint = models.CharField(max_length=4, blank=True, default="")
    # None until it has one (the company's first integration gets its Admin API key when it is rotated).
    admin_key_id = models.CharField(max_length=24, null=True, blank=True, unique=True)
    admin_secret = models.TextField(blank=True, default="")  # encrypted (apps.integrations.secrets)
    admin_secret_hint = models.CharField(max_length=4, blank=True, default="")
    created_by = models.ForeignKey("accounts.User", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("created_at", "id")
        constraints = [
            models.UniqueConstraint(fields=["company_key"], condition=Q(company_key=True),
                                    name="integrations_one_company_key"),
            models.UniqueConstraint(fields=["content_key_hash"], condition=~Q(content_key_hash=""),
                                    name="integrations_content_key_unique"),
        ]

    def __str__(self) -> str:
        return self.name
