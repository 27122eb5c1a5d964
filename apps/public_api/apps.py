from django.apps import AppConfig


class PublicApiConfig(AppConfig):
    name = "apps.public_api"
    label = "public_api"

    def ready(self) -> None:
        from apps.core import content_version
        from apps.public_api import core, signals  # noqa: F401 - connects the receivers

        if core.forget_leases not in content_version.after_bump:
            content_version.after_bump.append(core.forget_leases)
