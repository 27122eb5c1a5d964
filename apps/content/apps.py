from django.apps import AppConfig


class ContentConfig(AppConfig):
    name = "apps.content"
    label = "content"

    def ready(self):
        from apps.core import events

        events.subscribe("apps.content.subscribers")  # a revision for each save of a post
        events.subscribe("apps.content.scheduling")  # the index of scheduled publishing (apps.core.due)
