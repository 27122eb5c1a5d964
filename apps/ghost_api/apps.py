from django.apps import AppConfig


class GhostApiConfig(AppConfig):
    name = "apps.ghost_api"
    label = "ghost_api"
    verbose_name = "Ghost-compatible Content API"
