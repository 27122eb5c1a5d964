"""The download of an export (GET /api/exports/download/<token>): a file, so a plain view. No
sign-in: the signed, expiring token names the company and the export (services.export_open); a
token of another company's host, forged or expired is the API's 404 envelope."""
from __future__ import annotations

from django.http import FileResponse

from apps.core.api import envelope
from apps.core.errors import NotFound
from apps.portability import services


def download_export(request, token: str):
    if request.method not in ("GET", "HEAD"):
        return envelope(405, "Method not allowed", headers={"Allow": "GET, HEAD"})
    try:
        job, handle = services.export_open(token=token)
    except NotFound as exc:
        return envelope(404, exc.message, exc.code)
    response = FileResponse(handle, as_attachment=True, filename=f"export-{job.created_at:%Y-%m-%d}.zip",
                            content_type="application/zip")
    response["Cache-Control"] = "private, no-store"
    return response
