from django.apps import AppConfig


class NewslettersConfig(AppConfig):
    name = "apps.newsletters"
    label = "newsletters"
