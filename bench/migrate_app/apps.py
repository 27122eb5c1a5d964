from django.apps import AppConfig


class BenchMigrateConfig(AppConfig):
    name = "bench.migrate_app"
    label = "benchmig"
    default_auto_field = "django.db.models.BigAutoField"
