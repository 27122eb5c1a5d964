from django.apps import AppConfig


class PublicApiConfig(AppConfig):
    name = "apps.public_api"
    label = "public_api"

    def ready(self) -> None:
        from apps.public_api import signals  # noqa: F401 - connects the receivers
