"""URLs of a content web process (WEB_ROUTES=content): the public content API of every company
host (/api/v1/, and its Ghost-compatible routes /ghost/api/content/) and the health check (/api/health); every other path is the API's 404. The
deployment sends /api/v1/ (through the cache tier) to a pool of these and everything else to
web processes with every route (docs/scaling-engines.md: Content web pool)."""
from django.urls import include, path, re_path

from apps.core import health
from apps.core.api import api_not_found
from config.api_content import public_api

urlpatterns = [
    path("api/v1/", public_api.urls),
    path("ghost/api/", include("apps.ghost_api.urls")),
    *health.urlpatterns,  # plain views (apps.core.health)
    re_path(r"^.*$", api_not_found),
]
