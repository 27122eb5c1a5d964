"""The company's audit log: who did what, when, and from where (apps.audit.services.audit_record)."""
from __future__ import annotations

import uuid

from django.db import models

# Every action the log records, with the label the Activity screen shows.
ACTIONS = {
    "auth.login": "Signed in",
    "auth.login_failed": "Failed sign-in",
    "auth.two_factor_failed": "Wrong two-factor code",
    "user.two_factor_enabled": "Two-factor sign-in turned on",
    "user.two_factor_disabled": "Two-factor sign-in turned off",
    "user.two_factor_reset": "Two-factor sign-in reset by an admin",
    "user.recovery_codes_regenerated": "New recovery codes",
    "user.created": "User created",
    "user.updated": "User changed",
    "user.role_changed": "Role changed",
    "user.status_changed": "Status changed",
    "user.deleted": "User deleted",
    "post.created": "Post created",
    "post.updated": "Post updated",
    "post.published": "Post published",
    "post.unpublished": "Post unpublished",
    "post.scheduled": "Post scheduled",
    "post.deleted": "Post deleted",
    "post.restored": "Revision restored",
    "post.review_requested": "Review requested",
    "post.review_returned": "Sent back from review",
    "page.created": "Page created",
    "page.updated": "Page updated",
    "page.published": "Page published",
    "page.unpublished": "Page unpublished",
    "page.scheduled": "Page scheduled",
    "page.deleted": "Page deleted",
    "page.restored": "Page revision restored",
    "page.review_requested": "Page review requested",
    "page.review_returned": "Page sent back from review",
    "category.created": "Category created",
    "category.updated": "Category changed",
    "category.deleted": "Category deleted",
    "tag.created": "Tag created",
    "tag.updated": "Tag changed",
    "tag.deleted": "Tag deleted",
    "media.created": "Media uploaded",
    "media.updated": "Media changed",
    "media.deleted": "Media deleted",
    "settings.updated": "Settings changed",
    "api_key.rotated": "API key rotated",
    "integration.created": "Integration created",
    "integration.rotated": "Integration keys rotated",
    "integration.deleted": "Integration deleted",
    "company.deletion_requested": "Company deletion requested",
    "support.granted": "Support access granted",
    "support.revoked": "Support access revoked",
    "support.started": "Support signed in as a user",
    "support.ended": "Support session ended",
    "batch.completed": "Bulk change",  # one entry for a whole import or bulk action (apps.core.events.batch)
}
OBJECT_TYPES = ("user", "post", "page", "category", "tag", "media", "company", "integration")


class AuditEntry(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    action = models.CharField(max_length=40)
    # Who: the user (kept as a name too, so an entry outlives the account); none for a failed
    # sign-in or the scheduler; an integration (apps.integrations) by its name, "<name> (integration)".
    actor = models.ForeignKey("accounts.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    actor_name = models.CharField(max_length=254, blank=True, default="")
    object_type = models.CharField(max_length=20, blank=True, default="")
    object_id = models.CharField(max_length=64, blank=True, default="")
    summary = models.CharField(max_length=500, blank=True, default="")
    # From where: the client address as the day's keyed hash (apps.analytics.privacy), never the address.
    client_hash = models.CharField(max_length=32, blank=True, default="")

    class Meta:
        ordering = ("-created_at", "-id")
        indexes = [
            models.Index(fields=["action", "-created_at"], name="audit_action_idx"),
            models.Index(fields=["actor", "-created_at"], name="audit_actor_idx"),
            models.Index(fields=["object_type", "object_id"], name="audit_object_idx"),
        ]
