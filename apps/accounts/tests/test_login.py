import base64
import json
import time

import jwt
import pytest
from django.conf import settings
from django.test import override_settings
from django_tenants.utils import schema_context

from apps.accounts.models import User
from apps.accounts.services import user_update
from apps.accounts.tokens import token_issue
from apps.core.testing import DEFAULT_PASSWORD, Api, create_user


def login(tenant, email="admin@example.com", password=DEFAULT_PASSWORD, **kw):
    return Api(tenant).post("/api/auth/login", {"email": email, "password": password}, **kw)


def test_login_success_payload_and_token_claims(tenant, admin):
    response = login(tenant)
    assert response.status_code == 200
    body = response.json()
    assert body["success"] is True and body["message"] == "Login successful"
    assert body["expiresIn"] == 24 * 3600
    assert body["user"] == {"userId": str(admin.id), "username": admin.username, "role": "admin"}
    claims = jwt.decode(body["token"], settings.JWT_SECRET, algorithms=["HS256"])
    assert claims["userId"] == str(admin.id) and claims["username"] == admin.username
    assert claims["role"] == "admin" and claims["tenant"] == tenant.schema_name
    assert claims["exp"] - claims["iat"] == 24 * 3600
    with schema_context(tenant.schema_name):
        assert User.objects.get(pk=admin.pk).last_login is not None

    me = Api(tenant, token=body["token"]).get("/api/auth/me")
    assert me.status_code == 200
    assert me.json()["user"]["email"] == "admin@example.com"
    assert "password" not in me.json()["user"]


def test_email_is_case_insensitive(tenant, admin):
    assert login(tenant, email="ADMIN@Example.com").status_code == 200


@override_settings(JWT_EXPIRES_IN=3600)
def test_expires_in_follows_the_setting(tenant, admin):
    assert login(tenant).json()["expiresIn"] == 3600


def test_wrong_password_and_unknown_email_get_the_same_401(tenant, admin):
    wrong = login(tenant, password="wrong-password")
    unknown = login(tenant, email="nobody@example.com")
    for response in (wrong, unknown):
        assert response.status_code == 401
        assert response.json() == {"success": False, "message": "Invalid email or password", "error": "unauthorized",
                                   "code": "invalid_credentials"}


def test_login_validation_messages(tenant):
    response = Api(tenant).post("/api/auth/login", {"email": "", "password": ""})
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"field": "email", "message": "Email is required"},
        {"field": "password", "message": "Password is required"},
    ]
    response = Api(tenant).post("/api/auth/login", {"email": "not-email", "password": "x"})
    assert response.json()["errors"] == [{"field": "email", "message": "Please enter a valid email address"}]


def test_five_failures_throttle_the_account_from_that_address_with_retry_after(tenant, admin):
    for _ in range(5):
        assert login(tenant, password="wrong-password", REMOTE_ADDR="10.0.0.1").status_code == 401
    blocked = login(tenant, REMOTE_ADDR="10.0.0.1")  # right password, same address: blocked
    assert blocked.status_code == 429
    assert blocked.json()["error"] == "rate_limited"
    assert "Too many failed login attempts" in blocked.json()["message"]
    assert 0 < int(blocked["Retry-After"]) <= 15 * 60
    assert login(tenant, REMOTE_ADDR="10.0.0.2").status_code == 200  # the owner elsewhere is not locked out


def test_guesses_from_many_addresses_do_not_lock_the_owner_out(tenant, admin):
    """5 wrong guesses from 5 addresses locked the account for everyone for 15 minutes."""
    for i in range(5):
        assert login(tenant, password="wrong-password", REMOTE_ADDR=f"10.3.0.{i}").status_code == 401
    assert login(tenant, REMOTE_ADDR="10.3.1.1").status_code == 200


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_guesses_forwarded_by_a_trusted_proxy_are_counted_per_client_address(tenant, admin):
    proxy = {"REMOTE_ADDR": "10.250.0.1"}
    for _ in range(5):
        response = login(tenant, password="wrong-password", HTTP_X_FORWARDED_FOR="203.0.113.9", **proxy)
        assert response.status_code == 401
    assert login(tenant, HTTP_X_FORWARDED_FOR="203.0.113.9", **proxy).status_code == 429
    # Not the proxy's address: another client behind the same proxy signs in.
    assert login(tenant, HTTP_X_FORWARDED_FOR="198.51.100.7", **proxy).status_code == 200


@override_settings(LOGIN_MAX_FAILURES_PER_ACCOUNT=12)
def test_distributed_guessing_hits_the_per_account_ceiling(tenant, admin):
    for i in range(12):
        assert login(tenant, password="wrong-password", REMOTE_ADDR=f"10.4.0.{i}").status_code == 401
    blocked = login(tenant, REMOTE_ADDR="10.4.1.1")
    assert blocked.status_code == 429
    assert 15 * 60 < int(blocked["Retry-After"]) <= 3600  # the ceiling's window is an hour
    # A right password does not reset the ceiling (the guesser would get a fresh allowance).
    assert login(tenant, REMOTE_ADDR="10.4.1.2").status_code == 429


def test_the_ceiling_defaults_to_fifty_an_hour():
    assert (settings.LOGIN_MAX_FAILURES_PER_ACCOUNT, settings.LOGIN_ACCOUNT_FAILURE_WINDOW) == (50, 3600)


def test_failures_throttle_the_client_address_across_accounts(tenant, admin):
    for i in range(5):
        assert login(tenant, email=f"user{i}@example.com", password="x" * 8, REMOTE_ADDR="10.9.9.9").status_code == 401
    assert login(tenant, REMOTE_ADDR="10.9.9.9").status_code == 429
    assert login(tenant, REMOTE_ADDR="10.9.9.8").status_code == 200


@override_settings(LOGIN_MAX_FAILURES_PER_ACCOUNT=5)
def test_throttle_of_one_company_does_not_block_the_same_email_elsewhere(make_tenant):
    first, second = make_tenant(), make_tenant()
    for i in range(5):
        login(first, password="wrong-password", REMOTE_ADDR=f"10.1.0.{i}")
    assert login(first, REMOTE_ADDR="10.1.1.1").status_code == 429
    assert login(second, REMOTE_ADDR="10.1.1.2").status_code == 200


def test_a_success_resets_the_account_failures(tenant, admin):
    for i in range(4):
        login(tenant, password="wrong-password", REMOTE_ADDR=f"10.2.0.{i}")
    assert login(tenant, REMOTE_ADDR="10.2.1.0").status_code == 200
    for i in range(4):
        assert login(tenant, password="wrong-password", REMOTE_ADDR=f"10.2.2.{i}").status_code == 401
    assert login(tenant, REMOTE_ADDR="10.2.3.0").status_code == 200


@pytest.mark.parametrize("status", ["suspended", "inactive"])
def test_suspended_or_inactive_users_cannot_sign_in_and_their_tokens_stop(tenant, admin, status):
    user = create_user(tenant, "editor", email="ed@example.com")
    token = login(tenant, email="ed@example.com").json()["token"]
    assert Api(tenant, token=token).get("/api/auth/me").status_code == 200
    with schema_context(tenant.schema_name):
        user_update(actor=admin, user=user, status=status)
    refused = login(tenant, email="ed@example.com")
    assert refused.status_code == 403
    assert refused.json()["message"] == f"Your account is {status}. Please contact your administrator."
    assert Api(tenant, token=token).get("/api/auth/me").status_code == 401


def test_password_change_invalidates_older_tokens(tenant, admin):
    token = login(tenant).json()["token"]
    response = Api(tenant, token=token).put(f"/api/users/{admin.id}", {"password": "brand-new-pass",
                                                                          "currentPassword": DEFAULT_PASSWORD})
    assert response.status_code == 200
    assert Api(tenant, token=token).get("/api/auth/me").status_code == 401
    assert Api(tenant, token=response.json()["token"]).get("/api/auth/me").status_code == 200
    assert login(tenant, password="brand-new-pass").status_code == 200


def test_deleted_users_token_stops_working(tenant, admin):
    user = create_user(tenant, "author")
    api_user = Api(tenant, user=user)
    assert api_user.get("/api/auth/me").status_code == 200
    assert Api(tenant, user=admin).delete(f"/api/users/{user.id}").status_code == 200
    assert api_user.get("/api/auth/me").status_code == 401


def test_token_of_tenant_a_is_refused_on_tenant_b(make_tenant):
    first, second = make_tenant(), make_tenant()
    token = login(first).json()["token"]
    response = Api(second, token=token).get("/api/auth/me")
    assert response.status_code == 401
    assert response.json()["error"] == "unauthorized"


def test_expired_token_is_refused(tenant, admin):
    now = int(time.time())
    token = jwt.encode(
        {"userId": str(admin.id), "username": admin.username, "role": "admin", "tenant": tenant.schema_name,
         "tv": admin.token_version, "iat": now - 7200, "exp": now - 60},
        settings.JWT_SECRET, algorithm="HS256",
    )
    response = Api(tenant, token=token).get("/api/auth/me")
    assert response.status_code == 401
    assert response.json()["message"] == "Your session has expired. Please log in again."


def test_tampered_token_is_refused(tenant, admin):
    token, _ = token_issue(user=admin, schema_name=tenant.schema_name)
    header, payload, signature = token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=="))
    claims["role"] = "admin"
    claims["userId"] = str(create_user(tenant, "viewer").id)
    forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    assert Api(tenant, token=f"{header}.{forged}.{signature}").get("/api/auth/me").status_code == 401
    assert Api(tenant, token=token[:-2] + ("AA" if token[-2:] != "AA" else "BB")).get("/api/auth/me").status_code == 401


def test_alg_none_token_is_refused(tenant, admin):
    now = int(time.time())
    claims = {"userId": str(admin.id), "username": admin.username, "role": "admin", "tenant": tenant.schema_name,
              "tv": admin.token_version, "iat": now, "exp": now + 3600}
    token = jwt.encode(claims, key=None, algorithm="none")
    assert Api(tenant, token=token).get("/api/auth/me").status_code == 401
    other_key = jwt.encode(claims, "some-other-secret-that-is-long-enough-000", algorithm="HS256")
    assert Api(tenant, token=other_key).get("/api/auth/me").status_code == 401


def test_missing_or_malformed_authorization_is_401(tenant):
    assert Api(tenant).get("/api/auth/me").status_code == 401
    assert Api(tenant, headers={"Authorization": "Basic abc"}).get("/api/auth/me").status_code == 401
    assert Api(tenant, token="not.a.jwt").get("/api/auth/me").status_code == 401
