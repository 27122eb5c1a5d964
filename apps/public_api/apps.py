from django.apps import AppConfig


class PublicApiConfig(AppConfig):
    name = "apps.public_api"
    label = "public_api"
