"""Host -> tenant -> search_path. The tenant comes from the Host header only.

- The root domain gets the public URLconf (sign-up, health, the SPA).
- `{subdomain}.{ROOT_DOMAIN}` (or another Domain row) gets that tenant's URLconf.
- Unknown hosts: a JSON 404 under /api, the SPA's 404 page elsewhere.
- A suspended tenant's API answers 403; its SPA still loads (and shows the API's error).
"""
from __future__ import annotations

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.db import connection
from django.urls import set_urlconf
from django_tenants.middleware.main import TenantMainMiddleware

from apps.core.api import envelope
from apps.core.logging import bind_tenant
from apps.core.spa import spa_response
from tenants.models import Client, Domain


def _is_api(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


class TenantMiddleware(TenantMainMiddleware):
    def process_request(self, request):
        connection.set_schema_to_public()
        request.tenant = None
        try:
            hostname = request.get_host().split(":")[0].lower().rstrip(".")
        except DisallowedHost:
            return envelope(400, "Invalid host", "bad_request") if _is_api(request.path_info) else None

        if hostname in (settings.ROOT_DOMAIN, f"www.{settings.ROOT_DOMAIN}"):
            return self._route_public(request)

        domain = Domain.objects.select_related("tenant").filter(domain=hostname).first()
        if domain is None:
            if request.path_info.rstrip("/") == "/api/health":
                return self._route_public(request)
            if _is_api(request.path_info):
                return envelope(404, "No company is registered at this address", "not_found")
            return spa_response(request, tenant=None, status=404)

        tenant: Client = domain.tenant
        if tenant.is_suspended and _is_api(request.path_info):
            return envelope(403, "This company account is suspended. Please contact support.", "forbidden")
        tenant.domain_url = hostname
        bind_tenant(tenant.schema_name)
        request.tenant = tenant
        connection.set_tenant(tenant)
        request.urlconf = settings.ROOT_URLCONF
        set_urlconf(request.urlconf)
        return None

    @staticmethod
    def _route_public(request):
        request.urlconf = settings.PUBLIC_SCHEMA_URLCONF
        set_urlconf(request.urlconf)
        return None
