"""Public tables that one query reads for every company: the outbox (apps.core.outbox), work that
must leave the system after a commit; and the companies' next due periodic work (apps.core.due)."""
from __future__ import annotations

from django.db import models


class OutboxMessage(models.Model):
    """One piece of work to hand to a Celery task: written in the transaction of the change it
    follows, sent after the commit, and removed by the task once the work is done. `due_at` is when
    the relay sends it next: the time of a retry, or the end of the lease of a message already sent
    (re-sent then unless the task has finished). `dispatches` counts the messages sent since the
    task last reported; at OUTBOX_MAX_DISPATCHES the relay stops and the row shows as stuck."""

    id = models.BigAutoField(primary_key=True)
    key = models.CharField(max_length=200, unique=True)  # idempotency key: one live row per piece of work
    task = models.CharField(max_length=100)  # the Celery task's name
    args = models.JSONField(default=list)
    kwargs = models.JSONField(default=dict)
    schema_name = models.CharField(max_length=63)  # where the task runs: a company's schema, or "public"
    due_at = models.DateTimeField()
    lease_seconds = models.PositiveIntegerField()
    dispatches = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    dispatched_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=500, blank=True, default="")

    class Meta:
        db_table = "core_outbox"
        ordering = ("due_at", "id")
        indexes = [models.Index(fields=["due_at"], name="core_outbox_due_idx"),
                   models.Index(fields=["schema_name", "task"], name="core_outbox_schema_task_idx")]

    def __str__(self) -> str:
        return f"{self.task} {self.key} ({self.schema_name})"


class CompanyDue(models.Model):
    """When a company next has periodic work of one kind due (apps.core.due), one row per company and
    kind, in the public schema: beat finds the due companies with one indexed query instead of
    entering 10,000 schemas. `due_at` is at most the time of the company's next due work (earlier is
    harmless: the work finds nothing and settles the row); NULL: nothing due. `version` moves with
    every write, so a settle that read an older row changes nothing (a write made meanwhile stands)."""

    client = models.ForeignKey("tenants.Client", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=40)  # e.g. content.publish
    due_at = models.DateTimeField(null=True, blank=True)
    version = models.BigIntegerField(default=0)

    class Meta:
        db_table = "core_companydue"
        constraints = [models.UniqueConstraint(fields=["client", "kind"], name="core_companydue_one_per_kind")]
        indexes = [models.Index(fields=["kind", "due_at"], name="core_companydue_due_idx")]
