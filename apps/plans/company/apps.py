from django.apps import AppConfig


class PlansCompanyConfig(AppConfig):
    """A company (tenant) app inside apps.plans, which lives in the public schema."""

    name = "apps.plans.company"
    label = "plans_company"
    default_auto_field = "django.db.models.BigAutoField"
