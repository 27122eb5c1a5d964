"""Session tokens: a bounded lifetime whatever the token claims, and key rotation that keeps
everyone signed in for a configured period."""
from __future__ import annotations

import secrets
import time
from datetime import datetime, timedelta, timezone

import jwt
import pytest

from apps.accounts.tokens import key_id, token_issue
from apps.core.testing import Api


def claims_for(user, tenant, *, iat: int, exp: int) -> dict:
    return {"userId": str(user.id), "username": user.username, "role": user.role, "tenant": tenant.schema_name,
            "tv": user.token_version, "iat": iat, "exp": exp}


def me(tenant, token):
    return Api(tenant, token=token).get("/api/auth/me")


def test_token_names_its_key_by_fingerprint_never_by_value(tenant, admin, settings):
    token, _ = token_issue(user=admin, schema_name=tenant.schema_name)
    header = jwt.get_unverified_header(token)
    assert header["kid"] == key_id(settings.JWT_SECRET)
    assert settings.JWT_SECRET not in header["kid"] and len(header["kid"]) == 16
    assert me(tenant, token).status_code == 200


def test_a_far_future_expiry_is_refused_even_with_a_valid_signature(tenant, admin, settings):
    now = int(time.time())
    headers = {"kid": key_id(settings.JWT_SECRET)}
    ten_years = jwt.encode(claims_for(admin, tenant, iat=now, exp=now + 10 * 365 * 86400), settings.JWT_SECRET,
                           algorithm="HS256", headers=headers)
    response = me(tenant, ten_years)
    assert response.status_code == 401
    assert response.json()["message"] == "Invalid authentication token"
    at_the_limit = jwt.encode(claims_for(admin, tenant, iat=now, exp=now + settings.JWT_MAX_LIFETIME),
                              settings.JWT_SECRET, algorithm="HS256", headers=headers)
    assert me(tenant, at_the_limit).status_code == 200
    issued_in_the_future = jwt.encode(claims_for(admin, tenant, iat=now + 3600, exp=now + 7200),
                                      settings.JWT_SECRET, algorithm="HS256", headers=headers)
    assert me(tenant, issued_in_the_future).status_code == 401


def test_lowering_the_max_lifetime_refuses_tokens_already_issued(tenant, admin, settings):
    token, _ = token_issue(user=admin, schema_name=tenant.schema_name)
    settings.JWT_MAX_LIFETIME = settings.JWT_EXPIRES_IN - 1
    assert me(tenant, token).status_code == 401


@pytest.fixture
def rotated(settings):
    """The signing key is rotated: the old one becomes a previous key until `until`."""
    old, new = settings.JWT_SECRET, secrets.token_urlsafe(48)

    def rotate(*, until: datetime):
        settings.JWT_SECRET = new
        settings.JWT_PREVIOUS_SECRETS = [old]
        settings.JWT_PREVIOUS_SECRETS_UNTIL = until
        return old, new

    return rotate


def test_rotation_keeps_old_tokens_valid_until_the_configured_time(tenant, admin, rotated):
    old_token, _ = token_issue(user=admin, schema_name=tenant.schema_name)
    old, new = rotated(until=datetime.now(timezone.utc) + timedelta(hours=1))
    assert me(tenant, old_token).status_code == 200
    new_token, _ = token_issue(user=admin, schema_name=tenant.schema_name)
    assert jwt.get_unverified_header(new_token)["kid"] == key_id(new) != key_id(old)
    assert me(tenant, new_token).status_code == 200


def test_after_the_period_a_token_of_the_previous_key_is_refused(tenant, admin, rotated):
    old_token, _ = token_issue(user=admin, schema_name=tenant.schema_name)
    rotated(until=datetime.now(timezone.utc) - timedelta(seconds=1))
    response = me(tenant, old_token)
    assert response.status_code == 401
    assert response.json()["message"] == "Your session has expired. Please log in again."


def test_a_token_without_key_id_is_checked_against_the_current_key_only(tenant, admin, settings, rotated):
    now = int(time.time())
    claims = claims_for(admin, tenant, iat=now, exp=now + 3600)
    legacy_current = jwt.encode(claims, settings.JWT_SECRET, algorithm="HS256")
    assert me(tenant, legacy_current).status_code == 200
    old, new = rotated(until=datetime.now(timezone.utc) + timedelta(hours=1))
    assert me(tenant, jwt.encode(claims, old, algorithm="HS256")).status_code == 401
    assert me(tenant, jwt.encode(claims, new, algorithm="HS256")).status_code == 200


def test_a_key_id_pointing_at_another_key_does_not_help_a_forger(tenant, admin, settings):
    now = int(time.time())
    forged = jwt.encode(claims_for(admin, tenant, iat=now, exp=now + 3600), "a-guess-that-is-long-enough-0123456789",
                        algorithm="HS256", headers={"kid": key_id(settings.JWT_SECRET)})
    assert me(tenant, forged).status_code == 401
