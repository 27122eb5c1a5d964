from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "apps.core"
    label = "core"

    def ready(self):
        from django.db.backends.signals import connection_created

        from apps.core.pooler import on_connection_created

        # Behind a pooler: its session settings, and transaction pooling refused (apps/core/pooler.py).
        connection_created.connect(on_connection_created, dispatch_uid="core.pooler")
