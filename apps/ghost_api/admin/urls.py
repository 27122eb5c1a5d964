"""/ghost/api/admin/ on every company host (apps.ghost_api.admin.views), mounted by config.urls (the
full web process only: a content web process answers Ghost's 404 there): Ghost 5's Admin API
routes, with or without their trailing slash."""
from django.urls import re_path

from apps.ghost_api.admin import views

_RESOURCES = r"(?P<resource>posts|pages|tags|users)"

urlpatterns = [
    re_path(r"^(?P<resource>posts|pages|tags|users|site)/?$", views.admin),
    re_path(r"^(?P<resource>images)/upload/?$", views.admin),
    re_path(rf"^{_RESOURCES}/slug/(?P<slug>[^/]+)/?$", views.admin),
    re_path(r"^(?P<resource>users)/email/(?P<email>[^/]+)/?$", views.admin),
    re_path(rf"^{_RESOURCES}/(?P<ident>[^/]+)/?$", views.admin),
    re_path(r"^(?P<rest>.*)$", views.admin),
]
