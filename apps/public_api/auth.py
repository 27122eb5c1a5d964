"""x-api-key authentication of the public content API: a django-ninja APIKeyHeader over
apps.public_api.request (`identify`: the key against the company of the request's host, 401;
`count`: the key's rate limit, 429 with Retry-After, for read endpoints)."""
from __future__ import annotations

from ninja.security import APIKeyHeader

from apps.public_api import keys
from apps.public_api import request as public


class ApiKeyAuth(APIKeyHeader):
    param_name = "x-api-key"

    def __init__(self, *, throttled: bool = True) -> None:
        self.throttled = throttled
        super().__init__()

    def authenticate(self, request, key: str | None) -> keys.ApiKey:
        api_key = public.identify(getattr(request, "tenant", None), key)
        if self.throttled:
            public.count(api_key, request.META)
        return api_key


api_key_auth = ApiKeyAuth()
tracking_key_auth = ApiKeyAuth(throttled=False)
