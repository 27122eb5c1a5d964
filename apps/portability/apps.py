from django.apps import AppConfig


class PortabilityConfig(AppConfig):
    name = "apps.portability"
    label = "portability"
