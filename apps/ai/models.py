import uuid

from django.db import models


class GenerationJob(models.Model):
    """One AI generation (a blog draft, SEO metadata, or a translation draft of a post), run by a
    Celery worker."""

    class Kind(models.TextChoices):
        BLOG = "blog", "Blog"
        SEO = "seo", "SEO"
        TRANSLATE = "translate", "Translation"

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        SUCCEEDED = "succeeded", "Succeeded"
        FAILED = "failed", "Failed"

    FINISHED = (Status.SUCCEEDED, Status.FAILED)
    UNFINISHED = (Status.QUEUED, Status.RUNNING)

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    input = models.JSONField(default=dict)
    tone = models.CharField(max_length=32, blank=True, default="")
    audience = models.CharField(max_length=32, blank=True, default="")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    provider = models.CharField(max_length=32, blank=True, default="")
    runs = models.PositiveSmallIntegerField(default=0)  # times a worker started it
    created_by = models.ForeignKey(
        "accounts.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="generation_jobs"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
        indexes = [
            # the per-tenant limits: unfinished jobs, and today's jobs
            models.Index(fields=["status", "created_at"], name="ai_job_status_created"),
            models.Index(fields=["created_at"], name="ai_job_created"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} job {self.id} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in self.FINISHED
