"""Local-disk media served by Django (development, or a single machine without a front web
server). A company's host serves only keys under its own schema."""
import posixpath

from django.conf import settings
from django.http import Http404
from django.views.static import serve


def serve_tenant_media(request, path: str):
    tenant = getattr(request, "tenant", None)
    path = posixpath.normpath(path).lstrip("/")
    if tenant is None or ".." in path.split("/") or not path.startswith(f"{tenant.schema_name}/"):
        raise Http404("Not found")
    response = serve(request, path, document_root=settings.MEDIA_ROOT)
    response["Cache-Control"] = "public, max-age=86400"
    return response
