import uuid

from django.db import models


class Media(models.Model):
    """An image in the company's media library. `storage_key` is the key in the configured
    storage (local disk or S3) and always starts with the tenant's schema name."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    file_name = models.CharField(max_length=255)
    file_type = models.CharField(max_length=100)
    file_size = models.PositiveBigIntegerField(default=0)
    alt_text = models.CharField(max_length=500, blank=True, default="")
    # Alt text in other languages (docs/translations.md): {"fr": "..."}; `alt_text` is the default language's.
    alt_texts = models.JSONField(default=dict, blank=True)
    width = models.PositiveIntegerField(null=True, blank=True)
    height = models.PositiveIntegerField(null=True, blank=True)
    storage_key = models.CharField(max_length=500, unique=True)
    # {"thumbnail": {"webp": key, "original": key, "width": w, "height": h}, "small": ..., ...}
    renditions = models.JSONField(default=dict, blank=True)
    uploaded_by = models.ForeignKey(
        "accounts.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="media"
    )
    uploaded_at = models.DateTimeField(auto_now_add=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-uploaded_at",)
        indexes = [models.Index(fields=["-uploaded_at"], name="media_uploaded_idx")]

    def __str__(self) -> str:
        return self.file_name


