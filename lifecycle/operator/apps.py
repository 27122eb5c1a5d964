from django.apps import AppConfig


class OperatorConfig(AppConfig):
    name = "lifecycle.operator"
    label = "operator"
