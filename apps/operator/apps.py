from django.apps import AppConfig


class OperatorConfig(AppConfig):
    name = "apps.operator"
    label = "operator"
