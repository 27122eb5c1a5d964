"""URLs of a tenant host."""
from django.conf import settings
from django.urls import include, path, re_path

from apps.core.api import api_not_found
from apps.core.files import serve_tenant_media
from apps.core.spa import spa_view
from apps.members import views as members_views
from apps.portability.views import download_export
from config.api import dashboard_api, public_api

urlpatterns = [
    path("api/v1/", public_api.urls),
    path("ghost/api/admin/", include("apps.ghost_api.admin.urls")),  # writes: the full web process only
    path("ghost/api/", include("apps.ghost_api.urls")),
    path("api/exports/download/<str:token>", download_export),  # a file, not JSON: a plain view
    path("api/members/export/download/<str:token>", members_views.download_export),  # the members CSV
    path("api/", dashboard_api.urls),
    re_path(r"^api(?:/.*)?$", api_not_found),
]
if settings.SERVE_MEDIA:
    urlpatterns.append(re_path(r"^media/(?P<path>.*)$", serve_tenant_media))
urlpatterns += [path("", include("apps.feeds.urls")),
                path("members/", include("apps.members.urls")),  # readers' confirmation and preferences pages
                path("email/", include("apps.newsletters.urls")),  # newsletter emails' open pixel and click links
                re_path(r"^.*$", spa_view)]
