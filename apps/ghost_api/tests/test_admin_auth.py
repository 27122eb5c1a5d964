"""Ghost's Admin API authentication (apps.ghost_api.admin.auth): only a token signed HS256 with a
current Admin API key of the company of the host, for Ghost's audience, within its 5 minutes."""
from __future__ import annotations

import time

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from django_tenants.utils import schema_context

from apps.ghost_api.tests.admin_client import Admin, ghost_error, make_integration, sign
from apps.integrations.services import integration_delete, integration_rotate


@pytest.fixture
def keyed(tenant):
    integration, content_key, admin_key = make_integration(tenant)
    return integration, admin_key, Admin(tenant, admin_key)


def _refused(response, message: str, code: str = "INVALID_JWT"):
    assert response.status_code == 401, response.content
    error = ghost_error(response)
    assert error["type"] == "UnauthorizedError" and error["code"] == code
    assert error["message"] == message
    return error


def test_a_token_signed_as_ghosts_client_signs_it_opens_the_api(keyed):
    _, key, admin = keyed
    response = admin.get("posts/")
    assert response.status_code == 200, response.content
    assert response.json() == {"posts": [], "meta": {"pagination": {
        "page": 1, "limit": 15, "pages": 1, "total": 0, "next": None, "prev": None}}}
    assert response["Content-Version"] == "v5.0" and "no-store" in response["Cache-Control"]


@pytest.mark.parametrize("aud", ["/admin/", "/v5/admin/", "/v4/admin/", "/canary/admin/"])
def test_ghosts_audiences_are_accepted(keyed, aud):
    _, key, admin = keyed
    assert admin.get("posts/", token=sign(key, aud=aud)).status_code == 200


def test_no_authorization_is_ghosts_403(keyed, tenant):
    response = Admin(tenant, None).get("posts/")
    assert response.status_code == 403
    assert ghost_error(response)["type"] == "NoPermissionError"


def test_another_scheme_is_refused(keyed):
    _, key, admin = keyed
    response = admin.api.get("/ghost/api/admin/posts/", headers={"Authorization": f"Bearer {sign(key)}"})
    _refused(response, 'Authorization header format is "Authorization: Ghost [token]"', "INVALID_AUTH_HEADER")


def test_an_expired_token_is_refused(keyed):
    _, key, admin = keyed
    now = int(time.time())
    _refused(admin.get("posts/", token=sign(key, iat=now - 600, exp=now - 300)), "Invalid token: jwt expired")


def test_a_token_issued_in_the_future_is_refused(keyed):
    _, key, admin = keyed
    now = int(time.time())
    _refused(admin.get("posts/", token=sign(key, iat=now + 600, exp=now + 900)),
             "Invalid token: jwt issued in the future")
    # a few seconds of clock skew are allowed
    assert admin.get("posts/", token=sign(key, iat=now + 20, exp=now + 300)).status_code == 200


def test_a_token_older_than_five_minutes_is_refused_whatever_its_expiry(keyed):
    """A captured token replayed after its window: its exp set far ahead does not keep it alive."""
    _, key, admin = keyed
    now = int(time.time())
    _refused(admin.get("posts/", token=sign(key, iat=now - 400, exp=now + 3600)),
             "Invalid token: jwt lifetime is longer than 5 minutes")
    _refused(admin.get("posts/", token=sign(key, iat=now - 400, exp=now - 400 + 300)), "Invalid token: jwt expired")


def test_the_same_token_is_taken_again_within_its_window(keyed):
    _, key, admin = keyed
    token = sign(key)
    assert admin.get("posts/", token=token).status_code == 200
    assert admin.get("posts/", token=token).status_code == 200  # as Ghost: a token is good for its 5 minutes


def test_a_wrong_audience_is_refused(keyed):
    _, key, admin = keyed
    for aud in ("/content/", "/admin/posts/", "https://evil.example/admin/"):
        _refused(admin.get("posts/", token=sign(key, aud=aud)), "Invalid token: jwt audience invalid")
    _refused(admin.get("posts/", token=sign(key, aud=None)), "Invalid token: jwt must have aud")


def test_missing_times_are_refused(keyed):
    _, key, admin = keyed
    key_id, secret = key.split(":")
    import jwt

    token = jwt.encode({"aud": "/admin/", "exp": int(time.time()) + 60}, bytes.fromhex(secret), algorithm="HS256",
                       headers={"kid": key_id})
    _refused(admin.get("posts/", token=token), "Invalid token: jwt must have iat")


@pytest.mark.parametrize("algorithm", ["none", "HS512", "HS384"])
def test_another_algorithm_is_refused(keyed, algorithm):
    _, key, admin = keyed
    secret = bytes.fromhex(key.split(":")[1]) * 2  # long enough for HS512
    _refused(admin.get("posts/", token=sign(key, algorithm=algorithm, key=secret)),
             "Invalid token: the algorithm must be HS256")


def test_rs256_is_refused(keyed):
    _, key, admin = keyed
    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    _refused(admin.get("posts/", token=sign(key, algorithm="RS256", key=pem)),
             "Invalid token: the algorithm must be HS256")


def test_a_wrong_signature_is_refused(keyed):
    _, key, admin = keyed
    _refused(admin.get("posts/", token=sign(key, key=b"\x00" * 32)), "Invalid token: invalid signature")


def test_a_token_without_kid_or_with_an_unknown_one_is_refused(keyed):
    _, key, admin = keyed
    _refused(admin.get("posts/", token=sign(key, kid="")), "Admin API kid missing.", "MISSING_ADMIN_API_KID")
    _refused(admin.get("posts/", token=sign(key, kid="0" * 24)), "Unknown Admin API Key", "UNKNOWN_ADMIN_API_KEY")
    _refused(admin.get("posts/", token="not-a-token"), "Invalid token")


def test_another_companys_key_is_unknown_here(keyed, other_tenant):
    _, key, _ = keyed
    response = Admin(other_tenant, key).get("posts/")
    _refused(response, "Unknown Admin API Key", "UNKNOWN_ADMIN_API_KEY")
    response = Admin(other_tenant, key).post("posts/?source=html", {"posts": [{"title": "Sneaky", "html": "<p>x</p>"}]})
    _refused(response, "Unknown Admin API Key", "UNKNOWN_ADMIN_API_KEY")


def test_a_rotated_or_deleted_key_stops_at_once(keyed, tenant):
    integration, key, admin = keyed
    old_token = sign(key)
    with schema_context(tenant.schema_name):
        issued = integration_rotate(client=tenant, integration=integration, keys=("admin",))
    _refused(admin.get("posts/", token=old_token), "Unknown Admin API Key", "UNKNOWN_ADMIN_API_KEY")
    # the old secret under the new id is no better
    new_id = issued.admin_key.split(":")[0]
    _refused(admin.get("posts/", token=sign(key, kid=new_id)), "Invalid token: invalid signature")
    fresh = Admin(tenant, issued.admin_key)
    assert fresh.get("posts/").status_code == 200
    with schema_context(tenant.schema_name):
        integration_delete(client=tenant, integration=integration)
    _refused(fresh.get("posts/"), "Unknown Admin API Key", "UNKNOWN_ADMIN_API_KEY")


def test_a_suspended_company_answers_403(keyed, tenant):
    from tenants.models import Client

    _, key, admin = keyed
    Client.objects.filter(pk=tenant.pk).update(status=Client.Status.SUSPENDED)
    response = admin.get("posts/")
    assert response.status_code == 403 and ghost_error(response)["type"] == "NoPermissionError"


def test_unknown_routes_are_ghosts_404(keyed):
    _, key, admin = keyed
    for path in ("", "members/", "settings/", "posts/abc/def/ghi/"):
        response = admin.get(path)
        assert response.status_code == 404, path
        assert ghost_error(response)["type"] == "NotFoundError"


def test_an_admin_api_token_opens_nothing_else(keyed, tenant):
    """Neither the dashboard API nor the public content API takes an integration's token or key."""
    _, key, admin = keyed
    token = sign(key)
    for header in (f"Ghost {token}", f"Bearer {token}"):
        for path in ("/api/posts", "/api/users", "/api/integrations", "/api/auth/me"):
            response = admin.api.get(path, headers={"Authorization": header})
            assert response.status_code == 401, (header[:6], path)
    assert admin.api.get("/api/v1/posts", headers={"x-api-key": key}).status_code == 401
