"""x-api-key authentication of the public content API: a django-ninja APIKeyHeader over
apps.public_api.core.admit (the key against the company of the request's host, 401; then, for
read endpoints, one entry of the key's rate limit, 429 with Retry-After)."""
from __future__ import annotations

from ninja.security import APIKeyHeader

from apps.public_api import core, keys


class ApiKeyAuth(APIKeyHeader):
    param_name = "x-api-key"

    def __init__(self, *, throttled: bool = True) -> None:
        self.throttled = throttled
        super().__init__()

    def authenticate(self, request, key: str | None) -> keys.ApiKey:
        return core.admit(getattr(request, "tenant", None), key, counted=bool(request.META.get(keys.COUNTED)),
                          throttled=self.throttled)


api_key_auth = ApiKeyAuth()
tracking_key_auth = ApiKeyAuth(throttled=False)
