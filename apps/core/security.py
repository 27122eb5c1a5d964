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

from apps.core.html import EMBED_ORIGINS

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
        # The embeds the sanitiser keeps (apps.core.html), and the audio and video it keeps
        # (http(s) addresses: a media element runs no script).
        "frame-src " + " ".join(EMBED_ORIGINS),
        f"media-src 'self' https: blob: {media}",
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


def api_security_headers(*, secure: bool = False) -> list[tuple[str, str]]:
    """The security headers Django's middleware puts on an API response, for WSGI layers that
    answer in front of Django (the public API's cache-hit fast path), so both answer alike."""
    headers = [("Content-Security-Policy", API_POLICY)]
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        headers.append(("X-Content-Type-Options", "nosniff"))
    if settings.SECURE_REFERRER_POLICY:
        policy = settings.SECURE_REFERRER_POLICY
        headers.append(("Referrer-Policy", policy if isinstance(policy, str) else ",".join(policy)))
    if settings.SECURE_CROSS_ORIGIN_OPENER_POLICY:
        headers.append(("Cross-Origin-Opener-Policy", settings.SECURE_CROSS_ORIGIN_OPENER_POLICY))
    headers.append(("X-Frame-Options", settings.X_FRAME_OPTIONS))
    if secure and settings.SECURE_HSTS_SECONDS:
        value = f"max-age={settings.SECURE_HSTS_SECONDS}"
        if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
            value += "; includeSubDomains"
        if getattr(settings, "SECURE_HSTS_PRELOAD", False):
            value += "; preload"
        headers.append(("Strict-Transport-Security", value))
    return headers


def environ_is_secure(environ) -> bool:
    """request.is_secure() for a bare WSGI environ (SECURE_PROXY_SSL_HEADER honoured)."""
    header = settings.SECURE_PROXY_SSL_HEADER
    if header:
        name, value = header
        found = environ.get(name)
        if found is not None:
            return found.split(",", 1)[0].strip() == value
    return environ.get("wsgi.url_scheme") == "https"
