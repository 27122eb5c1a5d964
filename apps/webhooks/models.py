import uuid

from django.db import models

# Every event a company's website can subscribe to (docs/webhooks.md).
EVENTS = (
    "post.published", "post.updated", "post.unpublished", "post.deleted", "post.scheduled",
    "page.published", "page.updated", "page.unpublished", "page.deleted", "page.scheduled",
    "category.created", "category.updated", "category.deleted",
    "tag.created", "tag.updated", "tag.deleted",
    "media.created", "media.updated", "media.deleted",
    "batch.completed", "import.completed",
)
# One event for a whole import or bulk action (apps.core.events.batch), instead of one per change.
BATCH_EVENT = "batch.completed"
TEST_EVENT = "webhook.test"  # sent by "Send test event" only; not subscribable


class WebhookEndpoint(models.Model):
    """A URL of the company's website that receives signed event deliveries."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    url = models.URLField(max_length=2000)
    description = models.CharField(max_length=200, blank=True, default="")
    events = models.JSONField(default=list)  # names from EVENTS
    active = models.BooleanField(default=True)
    secret = models.CharField(max_length=100)  # signs deliveries; shown once (create, rotate)
    consecutive_failures = models.PositiveIntegerField(default=0)
    disabled_reason = models.TextField(blank=True, default="")  # set when failures disabled it
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("created_at", "id")

    def __str__(self) -> str:
        return self.url


class WebhookDelivery(models.Model):
    """One event sent (or being sent) to one endpoint; `attempt` counts the HTTP tries."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"  # queued, or waiting for its next retry
        SUCCEEDED = "succeeded", "Succeeded"
        FAILED = "failed", "Failed"  # no more retries

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    endpoint = models.ForeignKey(WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries")
    event_id = models.UUIDField(default=uuid.uuid4)  # the Webhook-Id header (kept by redelivery)
    event = models.CharField(max_length=40)
    payload = models.JSONField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    attempt = models.PositiveSmallIntegerField(default=0)
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    response_excerpt = models.TextField(blank=True, default="")
    duration_ms = models.PositiveIntegerField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-id")
        indexes = [models.Index(fields=["endpoint", "-created_at"], name="webhook_delivery_endpoint"),
                   models.Index(fields=["created_at"], name="webhook_delivery_created")]

    def __str__(self) -> str:
        return f"{self.event} to {self.endpoint_id} ({self.status})"
