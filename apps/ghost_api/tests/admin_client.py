"""What the Admin API's tests share: an integration of a company, tokens signed as Ghost's
`@tryghost/admin-api` signs them (or not quite), and a client of /ghost/api/admin/."""
from __future__ import annotations

import io
import time

import jwt
from django_tenants.utils import schema_context
from PIL import Image

from apps.core.testing import Api
from apps.integrations.services import integration_create

ADMIN = "/ghost/api/admin/"


def make_integration(tenant, name: str = "Publisher"):
    """(integration, content key, admin key "id:secret") of a new integration of `tenant`."""
    with schema_context(tenant.schema_name):
        issued = integration_create(client=tenant, name=name)
    return issued.integration, issued.content_key, issued.admin_key


def sign(admin_key: str, *, iat: int | None = None, exp: int | None = None, aud: str | None = "/admin/",
         algorithm: str = "HS256", kid: str | None = None, key=None, claims: dict | None = None) -> str:
    """A token as Ghost's client makes it (HS256, 5 minutes, audience /admin/), or altered."""
    key_id, secret = admin_key.split(":")
    now = int(time.time())
    payload = {"iat": now if iat is None else iat}
    payload["exp"] = payload["iat"] + 300 if exp is None else exp
    if aud is not None:
        payload["aud"] = aud
    payload.update(claims or {})
    signing_key = bytes.fromhex(secret) if key is None else key
    return jwt.encode(payload, None if algorithm == "none" else signing_key, algorithm=algorithm,
                      headers={"kid": key_id if kid is None else kid})


class Admin:
    """Requests to a company's /ghost/api/admin/ with an integration's key (a fresh token each)."""

    def __init__(self, tenant, admin_key: str | None) -> None:
        self.tenant = tenant
        self.key = admin_key
        self.api = Api(tenant)

    def _headers(self, token: str | None = None) -> dict:
        token = token if token is not None else (sign(self.key) if self.key else None)
        return {"Authorization": f"Ghost {token}", "Accept-Version": "v5.0"} if token else {}

    def get(self, path: str, params: dict | None = None, *, token: str | None = None):
        return self.api.get(ADMIN + path, data=params, headers=self._headers(token))

    def post(self, path: str, body=None, *, token: str | None = None, **kw):
        return self.api.post(ADMIN + path, body, headers=self._headers(token), **kw)

    def put(self, path: str, body=None, *, token: str | None = None):
        return self.api.put(ADMIN + path, body, headers=self._headers(token))

    def delete(self, path: str, *, token: str | None = None):
        return self.api.delete(ADMIN + path, headers=self._headers(token))


def png(width: int = 8, height: int = 8) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(buffer, format="PNG")
    return buffer.getvalue()


def ghost_error(response) -> dict:
    """The one error of Ghost's envelope."""
    body = response.json()
    assert set(body) == {"errors"} and len(body["errors"]) == 1, body
    error = body["errors"][0]
    assert set(error) == {"message", "context", "type", "details", "property", "help", "code", "id",
                          "ghostErrorCode"}
    return error
