"""/ghost/api/admin/ on every company host (apps.ghost_api.admin.views), mounted by config.urls (the
full web process only: a content web process answers Ghost's 404 there): Ghost 5's Admin API
routes, with or without their trailing slash. The view's module (its writes, the import's parsers
with the XML parser) is imported by the first Admin API request, not with the URL conf: most
workers never get one."""
from django.urls import re_path
from django.views.decorators.csrf import csrf_exempt


@csrf_exempt
def admin(request, **kwargs):
    from apps.ghost_api.admin.views import admin as view

    return view(request, **kwargs)


_RESOURCES = r"(?P<resource>posts|pages|tags|users)"

urlpatterns = [
    re_path(r"^(?P<resource>posts|pages|tags|users|site)/?$", admin),
    re_path(r"^(?P<resource>images)/upload/?$", admin),
    re_path(rf"^{_RESOURCES}/slug/(?P<slug>[^/]+)/?$", admin),
    re_path(r"^(?P<resource>users)/email/(?P<email>[^/]+)/?$", admin),
    re_path(rf"^{_RESOURCES}/(?P<ident>[^/]+)/?$", admin),
    re_path(r"^(?P<rest>.*)$", admin),
]
