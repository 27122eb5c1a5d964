from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "apps.core"
    label = "core"

    def ready(self):
        from django.db.backends.signals import connection_created

        from apps.core import events
        from apps.core.pooler import on_connection_created

        # Behind a pooler: its session settings, and transaction pooling refused (apps/core/pooler.py).
        connection_created.connect(on_connection_created, dispatch_uid="core.pooler")
        # What follows a write (apps/core/events.py): the content version and the cache tier come
        # first; each other subscriber is subscribed by its own app, in the order of INSTALLED_APPS.
        events.subscribe("apps.core.subscribers")
