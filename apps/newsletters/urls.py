"""The open pixel and click redirect of newsletter emails on a company host (apps.newsletters.tracking_views)."""
from django.urls import path

from apps.newsletters import tracking_views

urlpatterns = [
    path("open/<str:send>/<str:token>", tracking_views.email_open),
    path("click/<str:send>/<int:index>/<str:token>", tracking_views.email_click),
]
