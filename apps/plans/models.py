"""Plans' counters and the usage kept per company per day, in the public schema (one row per
company and resource: the operator console lists every company without visiting its schema)."""
from django.db import models


class PlanCounter(models.Model):
    """How much of a limited resource a company uses now (apps.plans.rules): changed in the same
    transaction as the write it counts, with a conditional UPDATE that is the limit's check."""

    client = models.ForeignKey("tenants.Client", on_delete=models.CASCADE, related_name="+")
    resource = models.CharField(max_length=32)
    used = models.BigIntegerField(default=0)
    counted_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["client", "resource"], name="plans_counter_one_per_resource")]


class UsageDay(models.Model):
    """One metric of one company on one UTC day (apps.plans.usage): events counted through the day
    (API requests, AI jobs, emails, webhook deliveries) and levels seen at its end (posts, seats,
    media bytes). Kept USAGE_RETENTION_DAYS."""

    client = models.ForeignKey("tenants.Client", on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    metric = models.CharField(max_length=32)
    value = models.BigIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["client", "day", "metric"], name="plans_usage_one_per_day")]
        indexes = [models.Index(fields=["day"], name="plans_usage_day_idx")]
