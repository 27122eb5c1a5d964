"""Host -> tenant -> search_path. The tenant comes from the Host header only.

- The root domain gets the public URLconf (sign-up, health, the SPA); so do the health routes on
  any host (apps.core.health: they need no company, and no database to find one).
- `{subdomain}.{ROOT_DOMAIN}` (or another Domain row) gets that tenant's URLconf.
- Unknown hosts: a JSON 404 under /api, the SPA's 404 page elsewhere.
- A suspended tenant's API answers 403; its SPA still loads (and shows the API's error).
"""
from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.db import connection
from django.urls import set_urlconf
from django_tenants.middleware.main import TenantMainMiddleware
from django_tenants.utils import get_public_schema_name

from apps.core import db
from apps.core.api import envelope
from apps.core.errors import ErrorCode
from apps.core.health import is_health_path
from apps.core.logging import bind_tenant
from apps.core.spa import spa_response
from tenants.models import Client, Domain

# The public content API of a company whose email is not verified yet (lifecycle.verification opens it).
UNVERIFIED_API = ("This company has not verified its email address yet. The administrator must open the link "
                  "sent at sign-up (or resend it from the dashboard) before the content API answers.")


TRIAL_LAPSED_API = ("This company's trial has ended. Its content API is paused until a plan is chosen; "
                    "nothing has been deleted.")


def _is_api(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


@lru_cache(maxsize=1)
def _domain_statement() -> tuple[str, list[str], list[str]]:
    """The lookup of a host's Domain row and its company, as the ORM's select_related would
    write it, with the public schema named: it runs on any search_path (no `SET search_path`
    before it) and is prepared once per connection (apps.core.db)."""
    quote = connection.ops.quote_name
    public = quote(get_public_schema_name())
    domain_fields = [field.attname for field in Domain._meta.concrete_fields]
    client_fields = [field.attname for field in Client._meta.concrete_fields]
    columns = [*(f"d.{quote(Domain._meta.get_field(name).column)}" for name in domain_fields),
               *(f"c.{quote(Client._meta.get_field(name).column)}" for name in client_fields)]
    sql = (f"SELECT {', '.join(columns)} FROM {public}.{quote(Domain._meta.db_table)} d "
           f"JOIN {public}.{quote(Client._meta.db_table)} c ON c.id = d.tenant_id "
           "WHERE d.domain = %s ORDER BY d.id LIMIT 1")
    return sql, domain_fields, client_fields


def _domain_lookup(hostname: str) -> Domain | None:
    """The Domain row of a host, with its company (Domain.objects.select_related("tenant")
    .filter(domain=hostname).first(), without compiling the query on every request)."""
    sql, domain_fields, client_fields = _domain_statement()
    rows = db.fetch_prepared(sql, [hostname])
    if not rows:
        return None
    row = rows[0]
    domain = Domain.from_db(connection.alias, domain_fields, row[:len(domain_fields)])
    Domain.tenant.field.set_cached_value(domain, Client.from_db(connection.alias, client_fields,
                                                                 row[len(domain_fields):]))
    return domain


def _use_tenant(tenant: Client) -> None:
    if (connection.schema_name == tenant.schema_name and connection.include_public_schema
            and connection.search_path_set_schemas):
        connection.tenant = tenant  # same schema, path already set: only the fresh row changes
    else:
        connection.set_tenant(tenant)
        db.schema_visited(tenant.schema_name)


class TenantMiddleware(TenantMainMiddleware):
    def process_request(self, request):
        request.tenant = None
        try:
            hostname = request.get_host().split(":")[0].lower().rstrip(".")
        except DisallowedHost:
            connection.set_schema_to_public()
            return envelope(400, "Invalid host", "bad_request") if _is_api(request.path_info) else None

        # The health routes need no company: a database outage must not fail the liveness probe.
        if hostname in (settings.ROOT_DOMAIN, f"www.{settings.ROOT_DOMAIN}") or is_health_path(request.path_info):
            return self._route_public(request)

        domain = _domain_lookup(hostname)
        if domain is None or domain.tenant.is_deleting:
            connection.set_schema_to_public()
            if _is_api(request.path_info):
                return envelope(404, "No company is registered at this address", "not_found")
            return spa_response(request, tenant=None, status=404)

        tenant: Client = domain.tenant
        if tenant.is_suspended and _is_api(request.path_info):
            connection.set_schema_to_public()
            return envelope(403, "This company account is suspended. Please contact support.", "forbidden")
        if tenant.is_serving and tenant.trial_lapsed and request.path_info.startswith("/api/v1"):
            connection.set_schema_to_public()
            return envelope(402, TRIAL_LAPSED_API, "payment_required", detail=ErrorCode.PLAN_EXPIRED)
        if not tenant.may_syndicate and request.path_info.startswith("/api/v1"):  # serving: not verified
            connection.set_schema_to_public()
            return envelope(403, UNVERIFIED_API, "forbidden", detail=ErrorCode.EMAIL_UNVERIFIED)
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
