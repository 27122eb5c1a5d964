"""Security headers on every response.

Django's SecurityMiddleware adds X-Content-Type-Options: nosniff, Referrer-Policy and (over
HTTPS) HSTS; XFrameOptionsMiddleware adds X-Frame-Options: DENY. This middleware adds the
Content-Security-Policy: a strict one for the dashboard's HTML (its one inline script, the
host's config, is allowed by hash), and `default-src 'none'` for everything else (API JSON,
media files)."""
from __future__ import annotations

import base64
import hashlib

from django.conf import settings

API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"


def script_hash(script_body: str) -> str:
    digest = hashlib.sha256(script_body.encode()).digest()
    return "'sha256-%s'" % base64.b64encode(digest).decode()


def dashboard_policy(inline_script_hashes: list[str]) -> str:
    media = " ".join(settings.CSP_MEDIA_SOURCES)
    return "; ".join([
        "default-src 'self'",
        "script-src 'self' " + " ".join(inline_script_hashes),
        "style-src 'self' 'unsafe-inline'",
        f"img-src 'self' data: blob: {media}",
        "font-src 'self' data:",
        "connect-src 'self'",
        "frame-src https://www.youtube.com https://www.youtube-nocookie.com",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ])


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = API_POLICY
        return response
