"""Local-disk media served by Django (development, or a single machine without a front web
server). A company's host serves only keys under its own schema."""
import posixpath

from django.conf import settings
from django.http import Http404
from django.views.static import serve

# Keys `{schema}/portability/...` hold files that are never public (uploaded imports, exports of a
# whole company: apps.media.storage.private_storage); this view never serves them.
PRIVATE_DIR = "portability"


def is_private_key(path: str) -> bool:
    parts = path.split("/")
    return len(parts) > 1 and parts[1] == PRIVATE_DIR


def serve_tenant_media(request, path: str):
    tenant = getattr(request, "tenant", None)
    path = posixpath.normpath(path).lstrip("/")
    if (tenant is None or ".." in path.split("/") or not path.startswith(f"{tenant.schema_name}/")
            or is_private_key(path)):
        raise Http404("Not found")
    response = serve(request, path, document_root=settings.MEDIA_ROOT)
    response["Cache-Control"] = "public, max-age=86400"
    return response
