"""Ghost's Admin API authentication: `Authorization: Ghost <token>`, where the token is a JWT the
tool signs itself with its Admin API key (`id:secret`, Ghost's `@tryghost/admin-api` does it for
each request):

- header: `alg` HS256 (anything else, `none` included, is refused before any key is looked up) and
  `kid`, the key's id (looked up in the company of the request's host only: another company's key
  is unknown here);
- signature: HMAC-SHA256 with the key's secret, hex-decoded (as Ghost signs);
- `aud`: `/admin/` (Ghost 5's clients), or a versioned form Ghost accepts (`/v5/admin/`,
  `/canary/admin/`...);
- `iat` and `exp`: both required; `exp` at most 5 minutes after `iat` (Ghost's clients sign for 5
  minutes); refused once expired, once `iat` is more than 5 minutes old (whatever `exp` says: a
  captured token is replayable for 5 minutes at most), and when `iat` is in the future, each with
  TOKEN_LEEWAY seconds of clock skew.

Every refusal is Ghost's 401 UnauthorizedError with Ghost's message and code (INVALID_JWT...); no
header at all is Ghost's 403 "Authorization failed". Ghost's Admin API also takes a staff member's
session (a cookie of Ghost's own admin app): there is no such session here (the dashboard signs in
with its own Bearer tokens), so only integrations' keys open it.
"""
from __future__ import annotations

import time

import jwt

from apps.ghost_api import errors
from apps.ghost_api.errors import GhostError
from apps.integrations import selectors as integrations
from apps.integrations.actor import IntegrationActor, actor_of

ALGORITHM = "HS256"
MAX_AGE = 5 * 60  # seconds: a token's lifetime (exp - iat) and its age (now - iat) at most
TOKEN_LEEWAY = 60  # seconds of clock skew between the tool and the server
_VERSIONS = ("v2", "v3", "v4", "v5", "v6", "canary")
AUDIENCES = ("/admin/", *(f"/{version}/admin/" for version in _VERSIONS))

INVALID_HEADER = 'Authorization header format is "Authorization: Ghost [token]"'
INVALID_TOKEN = "Invalid token"
KID_MISSING = "Admin API kid missing."
UNKNOWN_KEY = "Unknown Admin API Key"


def _refused(message: str, code: str = "INVALID_JWT") -> GhostError:
    return GhostError(401, message, code=code)


def _invalid(reason: str) -> GhostError:
    return _refused(f"{INVALID_TOKEN}: {reason}")


def authenticate(authorization: str | None) -> IntegrationActor:
    """The integration whose key signed the request's token (in the connection's company), or
    Ghost's refusal."""
    if not authorization:
        raise GhostError(403, errors.NO_KEY, context=errors.NO_KEY_CONTEXT)
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme != "Ghost" or not token:
        raise _refused(INVALID_HEADER, "INVALID_AUTH_HEADER")
    try:
        header = jwt.get_unverified_header(token)
    except jwt.InvalidTokenError:
        raise _refused(INVALID_TOKEN) from None
    if header.get("alg") != ALGORITHM:
        raise _invalid("the algorithm must be HS256")
    key_id = header.get("kid")
    if not key_id or not isinstance(key_id, str):
        raise _refused(KID_MISSING, "MISSING_ADMIN_API_KID")
    integration = integrations.integration_by_admin_key_id(key_id)
    secret = integrations.admin_secret_of(integration) if integration is not None else None
    if secret is None:
        raise _refused(UNKNOWN_KEY, "UNKNOWN_ADMIN_API_KEY")
    try:
        claims = jwt.decode(token, secret, algorithms=[ALGORITHM], audience=list(AUDIENCES), leeway=TOKEN_LEEWAY,
                            options={"require": ["iat", "exp", "aud"], "verify_iat": True})
    except jwt.ExpiredSignatureError:
        raise _invalid("jwt expired") from None
    except jwt.ImmatureSignatureError:
        raise _invalid("jwt issued in the future") from None
    except jwt.InvalidAudienceError:
        raise _invalid("jwt audience invalid") from None
    except jwt.InvalidSignatureError:
        raise _invalid("invalid signature") from None
    except jwt.MissingRequiredClaimError as exc:
        raise _invalid(f"jwt must have {exc.claim}") from None
    except jwt.InvalidTokenError:
        raise _refused(INVALID_TOKEN) from None
    issued, expires = claims["iat"], claims["exp"]
    if expires - issued > MAX_AGE:
        raise _invalid("jwt lifetime is longer than 5 minutes")
    if time.time() - issued > MAX_AGE + TOKEN_LEEWAY:
        raise _invalid("maxAge exceeded")
    return actor_of(integration)
