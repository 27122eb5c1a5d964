"""Serves the dashboard's index.html for every non-API path, with the host's tenancy facts
injected (the SPA decides between the root-domain and tenant screens from them)."""
from __future__ import annotations

import json

from django.conf import settings
from django.http import HttpResponse

from apps.core.security import dashboard_policy, script_hash

PLACEHOLDER = "<!--cms-config-->"
_cache: dict = {}

FALLBACK = """<!doctype html><html><head><meta charset="utf-8"><title>CMS</title>{config}</head>
<body><main style="font-family:sans-serif;max-width:40rem;margin:4rem auto">
<h1>{title}</h1><p>{text}</p></main></body></html>"""


def _index_html() -> str | None:
    path = settings.DASHBOARD_DIST / "index.html"
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return None
    if _cache.get("mtime") != mtime:
        _cache["html"] = path.read_text(encoding="utf-8")
        _cache["mtime"] = mtime
    return _cache["html"]


def spa_response(request, *, tenant=None, status: int = 200) -> HttpResponse:
    config = {
        "rootDomain": settings.ROOT_DOMAIN,
        "tenant": tenant.subdomain if tenant is not None else None,
        "tenantFound": status != 404,
        "companyName": tenant.name if tenant is not None else None,
    }
    body = "window.__CMS__ = %s;" % json.dumps(config).replace("<", "\\u003c")
    script = f"<script>{body}</script>"
    html = _index_html()
    if html is None:
        if status == 404:
            title, text = "Oops! Page not found", "No company is registered at this address."
        else:
            title, text = "Dashboard not built", "Run <code>make dashboard</code> to build the dashboard."
        html = FALLBACK.format(config=script, title=title, text=text)
    else:
        html = html.replace(PLACEHOLDER, script, 1)
    response = HttpResponse(html, status=status, content_type="text/html; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Content-Security-Policy"] = dashboard_policy([script_hash(body)])
    return response


def spa_view(request, *args, **kwargs) -> HttpResponse:
    return spa_response(request, tenant=getattr(request, "tenant", None))
