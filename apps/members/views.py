"""Plain views of members: the export's download (a file, not JSON). No sign-in: the signed,
expiring token names the company and the filters (apps.members.exporting); a token forged,
expired or of another company's host is the API's 404 envelope."""
from __future__ import annotations

from django.http import StreamingHttpResponse

from apps.core.api import envelope
from apps.core.errors import NotFound
from apps.members import exporting


def download_export(request, token: str):
    if request.method not in ("GET", "HEAD"):
        return envelope(405, "Method not allowed", headers={"Allow": "GET, HEAD"})
    try:
        wanted = exporting.export_filter(token)
    except NotFound as exc:
        return envelope(404, exc.message, exc.code)
    response = StreamingHttpResponse(exporting.export_lines(wanted), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="members.csv"'
    response["Cache-Control"] = "private, no-store"
    return response
