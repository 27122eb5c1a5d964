"""A company's newsletters (docs/newsletters.md), in the company's schema.

A newsletter is a list readers subscribe to (apps.members.Member.newsletters) and a look for the
emails sent to it: the sender's name, a reply-to address, a header image and a footer. New
sign-ups from the website are subscribed to the newsletters marked `default_on_signup` when they
name none.
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
