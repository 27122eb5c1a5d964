from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "apps.audit"
    label = "audit"

    def ready(self):
        from apps.core import events

        events.subscribe("apps.audit.subscribers")  # the entries of each change (apps/audit/subscribers.py)
