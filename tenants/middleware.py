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


def _domain_lookup(hostname: str) -> Domain | None:
    """The Domain row of a host, with its company. The tables live in the public schema, which
    is on every search path django-tenants sets (a company's schema holds no table of that
    name), so the lookup runs on whatever path the connection has: a connection that served
    this company last keeps its path, and no `SET search_path` precedes the request's queries."""
    if not connection.schema_name:
        connection.set_schema_to_public()
    return Domain.objects.select_related("tenant").filter(domain=hostname).first()


def _use_tenant(tenant: Client) -> None:
    if (connection.schema_name == tenant.schema_name and connection.include_public_schema
            and connection.search_path_set_schemas):
        connection.tenant = tenant  # same schema, path already set: only the fresh row changes
    else:
        connection.set_tenant(tenant)


class TenantMiddleware(TenantMainMiddleware):
    def process_request(self, request):
        request.tenant = None
        try:
            hostname = request.get_host().split(":")[0].lower().rstrip(".")
        except DisallowedHost:
            connection.set_schema_to_public()
            return envelope(400, "Invalid host", "bad_request") if _is_api(request.path_info) else None

        if hostname in (settings.ROOT_DOMAIN, f"www.{settings.ROOT_DOMAIN}"):
            return self._route_public(request)

        domain = _domain_lookup(hostname)
        if domain is None:
            connection.set_schema_to_public()
            if request.path_info.rstrip("/") == "/api/health":
                return self._route_public(request)
            if _is_api(request.path_info):
                return envelope(404, "No company is registered at this address", "not_found")
            return spa_response(request, tenant=None, status=404)

        tenant: Client = domain.tenant
        if tenant.is_suspended and _is_api(request.path_info):
            connection.set_schema_to_public()
            return envelope(403, "This company account is suspended. Please contact support.", "forbidden")
        tenant.domain_url = hostname
        bind_tenant(tenant.schema_name)
        request.tenant = tenant
        _use_tenant(tenant)
        request.urlconf = settings.ROOT_URLCONF
        set_urlconf(request.urlconf)
        return None

    @staticmethod
    def _route_public(request):
        connection.set_schema_to_public()
        request.urlconf = settings.PUBLIC_SCHEMA_URLCONF
        set_urlconf(request.urlconf)
        return None
