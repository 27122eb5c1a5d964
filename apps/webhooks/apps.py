from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "apps.webhooks"
    label = "webhooks"

    def ready(self):
        from apps.core import events

        events.subscribe("apps.webhooks.subscribers")  # the webhook events of each change
