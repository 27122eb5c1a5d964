from django.apps import AppConfig


class MembersConfig(AppConfig):
    name = "apps.members"
    label = "members"
