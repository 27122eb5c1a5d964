from django.db import models


class CompanyCounter(models.Model):
    """How much of a limited resource the company uses now (apps.plans.rules), one row per resource
    (a monthly one per month: "emails_per_month:2026-11"), in the company's schema: changed in the
    transaction of the write it counts, by a conditional UPDATE that is the limit's check. The public
    schema keeps a copy for reading every company at once (apps.plans.models.PlanCounter), brought
    up to date in batches (apps.plans.rules.counters_mirror)."""

    resource = models.CharField(max_length=64, unique=True)
    used = models.BigIntegerField(default=0)
    counted_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "plans_companycounter"
