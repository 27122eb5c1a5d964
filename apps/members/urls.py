"""The members' pages on a company's host (apps.members.pages)."""
from django.urls import path

from apps.members import pages

urlpatterns = [
    path("confirm", pages.confirm),
    path("preferences", pages.preferences),
    path("unsubscribe", pages.unsubscribe),
]
