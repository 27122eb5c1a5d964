from django.apps import AppConfig


class LifecycleConfig(AppConfig):
    """The company's lifecycle (the top floor above `tenants`): sign-up and provisioning, email
    verification, deletion, backup and restore, spare schemas, batch migrations, the operator
    commands. It may use every app; nothing in apps/ or tenants/ imports it. No models of its own:
    the company's rows are `tenants.Client` and `tenants.Domain`."""

    name = "lifecycle"
    label = "lifecycle"
