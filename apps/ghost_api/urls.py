"""/ghost/api/content/ on every company host (apps.ghost_api.views): Ghost 5's Content API routes,
with or without their trailing slash; anything else under /ghost/api/ is Ghost's 404."""
from django.urls import re_path

from apps.ghost_api import views

_BROWSE = r"(?P<resource>posts|pages|tags|authors|settings|tiers)"
_READ = r"(?P<resource>posts|pages|tags|authors)"

urlpatterns = [
    re_path(rf"^content/{_BROWSE}/?$", views.content),
    re_path(rf"^content/{_READ}/slug/(?P<slug>[^/]+)/?$", views.content),
    re_path(rf"^content/{_READ}/(?P<ident>[^/]+)/?$", views.content),
    re_path(r"^(?P<rest>.*)$", views.not_found),
]
