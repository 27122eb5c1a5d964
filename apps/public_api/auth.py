"""x-api-key authentication of the public content API (a django-ninja APIKeyHeader).

The key is compared with the keys of the company of the request's host only (request.tenant,
loaded from the Host header by tenants.middleware): a missing key, a wrong one, a rotated-out
one and another company's key all get 401. Read endpoints then count the request against the
key's rate limit (429 with Retry-After)."""
from __future__ import annotations

from ninja.security import APIKeyHeader

from apps.analytics import redis_conn
from apps.core.errors import Unauthorized
from apps.public_api import keys

KEY_REQUIRED = "API key is required. Send it in the x-api-key header."
KEY_INVALID = "Invalid API key"


class ApiKeyAuth(APIKeyHeader):
    param_name = "x-api-key"

    def __init__(self, *, throttled: bool = True) -> None:
        self.throttled = throttled
        super().__init__()

    def authenticate(self, request, key: str | None) -> keys.ApiKey:
        tenant = getattr(request, "tenant", None)
        if not key:
            raise Unauthorized(KEY_REQUIRED)
        kind = keys.kind_of(tenant, key) if tenant is not None else None
        if kind is None:
            raise Unauthorized(KEY_INVALID)
        api_key = keys.ApiKey(kind=kind, key_hash=keys.key_hash(key), limit=keys.limit_for(tenant.subscription_plan))
        if self.throttled and redis_conn.available() and not request.META.get(keys.COUNTED):
            keys.throttle(api_key)
        return api_key


api_key_auth = ApiKeyAuth()
tracking_key_auth = ApiKeyAuth(throttled=False)
