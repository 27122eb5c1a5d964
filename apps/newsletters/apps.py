from django.apps import AppConfig


class NewslettersConfig(AppConfig):
    name = "apps.newsletters"
    label = "newsletters"

    def ready(self):
        from anymail.signals import tracking

        from apps.core import events
        from apps.newsletters import webhooks

        events.subscribe("apps.newsletters.subscribers")  # a published post starts its waiting sends
        tracking.connect(webhooks.on_tracking, dispatch_uid="newsletters-tracking")  # bounces, complaints
