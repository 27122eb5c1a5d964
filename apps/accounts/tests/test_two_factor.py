"""Two-factor sign-in (TOTP): setup and confirmation, the sign-in's second step, recovery codes, the
company's requirement, an admin's reset. Codes are real TOTP codes made by pyotp from the key stored
for the user; emails are read from the real SMTP server (sent by a real Celery worker)."""
from __future__ import annotations

import time
from collections import Counter

import pyotp
import pytest
from django_tenants.utils import schema_context

from apps.accounts import two_factor
from apps.accounts.models import User
from apps.audit.models import AuditEntry
from apps.core import testing
from apps.core.mailcatcher import links, parts

PASSWORD = testing.DEFAULT_PASSWORD


# --- helpers -----------------------------------------------------------------------------------------
def away_from_step_edge() -> None:
    """Codes are made for a step relative to now: keep the step from changing under a test."""
    left = 30 - time.time() % 30
    if left < 2:
        time.sleep(left + 0.1)


def stored_totp(tenant, user) -> pyotp.TOTP:
    with schema_context(tenant.schema_name):
        return pyotp.TOTP(two_factor._secret_of(User.objects.get(pk=user.pk)))


def code_at(totp: pyotp.TOTP, offset: int) -> str:
    """The code of the step `offset` steps from now."""
    return totp.generate_otp(totp.timecode(time.time()) + offset)


def last_step(tenant, user) -> int:
    with schema_context(tenant.schema_name):
        return User.objects.get(pk=user.pk).two_factor_last_step


def next_code(tenant, user, totp) -> str:
    """A code not used yet: the earliest step of the window after the last one used."""
    now = totp.timecode(time.time())
    step = max(now - 1, last_step(tenant, user) + 1)
    assert step <= now + 1, "no unused step left in the window"
    return totp.generate_otp(step)


def enable(tenant, user) -> tuple[pyotp.TOTP, list[str]]:
    """Turn two-factor sign-in on through the API as the user would; (the app's TOTP, recovery codes)."""
    away_from_step_edge()
    api = testing.Api(tenant, user=user)
    setup = api.post("/api/auth/2fa/setup")
    assert setup.status_code == 200, setup.content
    totp = stored_totp(tenant, user)
    confirmed = api.post("/api/auth/2fa/confirm", {"code": totp.now()})
    assert confirmed.status_code == 200, confirmed.content
    return totp, confirmed.json()["recoveryCodes"]


def password_step(tenant, email: str):
    return testing.Api(tenant).post("/api/auth/login", {"email": email, "password": PASSWORD})


def challenge(tenant, email: str) -> str:
    reply = password_step(tenant, email)
    assert reply.status_code == 403, reply.content
    return reply.json()["challengeToken"]


def second_step(tenant, token: str, code: str):
    return testing.Api(tenant).post("/api/auth/login/2fa", {"challengeToken": token, "code": code})


# --- setup, confirmation, sign-in ---------------------------------------------------------------------
def test_setup_confirm_and_sign_in_with_a_code(tenant):
    user = testing.create_user(tenant, "editor", email="two@example.com")
    api = testing.Api(tenant, user=user)
    assert api.get("/api/auth/me").json()["twoFactorEnabled"] is False

    away_from_step_edge()
    setup = api.post("/api/auth/2fa/setup").json()
    secret = setup["secret"]
    assert setup["otpauthUri"].startswith("otpauth://totp/") and f"secret={secret}" in setup["otpauthUri"]
    assert "two%40example.com" in setup["otpauthUri"] and setup["qrSvg"].startswith("<svg")
    # the key is stored encrypted, never as it is
    with schema_context(tenant.schema_name):
        stored = User.objects.get(pk=user.pk).two_factor_secret
    assert stored and secret not in stored
    totp = stored_totp(tenant, user)
    assert totp.secret == secret
    # not on until confirmed: the password alone still signs in
    assert password_step(tenant, "two@example.com").status_code == 200

    wrong = api.post("/api/auth/2fa/confirm", {"code": "000000" if totp.now() != "000000" else "111111"})
    assert wrong.status_code == 400 and wrong.json()["code"] == "two_factor_invalid"
    assert api.post("/api/auth/2fa/confirm", {"code": ""}).json()["errors"][0]["field"] == "code"
    confirmed = api.post("/api/auth/2fa/confirm", {"code": totp.now()})
    assert confirmed.status_code == 200, confirmed.content
    codes = confirmed.json()["recoveryCodes"]
    assert len(codes) == 10 and len(set(codes)) == 10
    status = api.get("/api/auth/2fa").json()
    assert status["enabled"] is True and status["recoveryCodesLeft"] == 10
    assert secret not in api.get("/api/auth/2fa").content.decode()
    assert api.get("/api/auth/me").json()["twoFactorEnabled"] is True
    assert api.post("/api/auth/2fa/setup").status_code == 409  # on already: the key is never shown again

    # the password alone no longer gives a token
    first = password_step(tenant, "two@example.com")
    body = first.json()
    assert first.status_code == 403 and "token" not in body
    assert body["error"] == "forbidden" and body["code"] == "two_factor_required"
    assert body["message"] == "Enter the 6-digit code from your authenticator app to finish signing in."
    assert body["challengeToken"] and 240 <= body["expiresIn"] <= 360
    # the code used to confirm cannot be used again (same step); the next one signs in
    replay = second_step(tenant, body["challengeToken"], totp.now())
    assert replay.status_code == 400 and replay.json()["code"] == "two_factor_invalid"
    signed_in = second_step(tenant, body["challengeToken"], code_at(totp, 1))
    assert signed_in.status_code == 200, signed_in.content
    token = signed_in.json()["token"]
    assert testing.Api(tenant, token=token).get("/api/auth/me").json()["user"]["email"] == "two@example.com"
    # the challenge worked once
    again = second_step(tenant, body["challengeToken"], code_at(totp, 1))
    assert again.status_code == 400 and again.json()["code"] == "two_factor_challenge_invalid"
    with schema_context(tenant.schema_name):
        assert AuditEntry.objects.filter(action="auth.two_factor_failed", object_id=str(user.pk)).count() == 2
        assert AuditEntry.objects.filter(action="user.two_factor_enabled", object_id=str(user.pk)).exists()


def test_codes_of_one_step_either_side_are_accepted_once(tenant):
    user = testing.create_user(tenant, "author", email="window@example.com")
    totp, _ = enable(tenant, user)  # used the current step
    away_from_step_edge()
    token = challenge(tenant, "window@example.com")
    too_old = second_step(tenant, token, code_at(totp, -2))
    assert too_old.status_code == 400 and too_old.json()["code"] == "two_factor_invalid"
    # one step behind: already older than the step used at confirmation, so refused as a replay
    assert second_step(tenant, token, code_at(totp, -1)).status_code == 400
    too_new = second_step(tenant, token, code_at(totp, 2))
    assert too_new.status_code == 400
    assert second_step(tenant, token, code_at(totp, 1)).status_code == 200  # one step ahead
    # the current step is now behind the one used: refused
    assert second_step(tenant, challenge(tenant, "window@example.com"), totp.now()).status_code == 400


def test_a_code_one_step_behind_is_accepted(tenant):
    user = testing.create_user(tenant, "author", email="behind@example.com")
    totp, _ = enable(tenant, user)
    with schema_context(tenant.schema_name):  # as if the confirmation was long ago
        User.objects.filter(pk=user.pk).update(two_factor_last_step=0)
    away_from_step_edge()
    assert second_step(tenant, challenge(tenant, "behind@example.com"), code_at(totp, -1)).status_code == 200


def test_malformed_second_step_and_wrong_company(make_tenant):
    ours, theirs = make_tenant(), make_tenant()
    user = testing.create_user(ours, "viewer", email="ours@example.com")
    totp, _ = enable(ours, user)
    token = challenge(ours, "ours@example.com")
    missing = testing.Api(ours).post("/api/auth/login/2fa", {})
    assert missing.status_code == 400 and {e["field"] for e in missing.json()["errors"]} == {"challengeToken", "code"}
    forged = second_step(ours, token[:-2] + "xx", next_code(ours, user, totp))
    assert forged.status_code == 400 and forged.json()["code"] == "two_factor_challenge_invalid"
    # company A's challenge on company B's host (B has a user with the same address)
    testing.create_user(theirs, "viewer", email="ours@example.com")
    foreign = second_step(theirs, token, next_code(ours, user, totp))
    assert foreign.status_code == 400 and foreign.json()["code"] == "two_factor_challenge_invalid"
    assert "token" not in foreign.json()
    assert second_step(ours, token, next_code(ours, user, totp)).status_code == 200


def test_the_challenge_expires(tenant, settings):
    user = testing.create_user(tenant, "viewer", email="slow@example.com")
    totp, _ = enable(tenant, user)
    settings.TWO_FACTOR_CHALLENGE_SECONDS = 1
    token = challenge(tenant, "slow@example.com")
    time.sleep(2.2)
    late = second_step(tenant, token, next_code(tenant, user, totp))
    assert late.status_code == 400 and late.json()["code"] == "two_factor_challenge_invalid"
    assert "sign in again" in late.json()["message"]


def test_a_password_change_ends_waiting_challenges(tenant):
    user = testing.create_user(tenant, "viewer", email="moved@example.com")
    totp, _ = enable(tenant, user)
    token = challenge(tenant, "moved@example.com")
    admin = testing.Api(tenant, user=testing.tenant_admin(tenant))
    assert admin.put(f"/api/users/{user.pk}", {"password": "another-pass-1"}).status_code == 200
    reply = second_step(tenant, token, next_code(tenant, user, totp))
    assert reply.json()["code"] == "two_factor_challenge_invalid"


# --- throttling ---------------------------------------------------------------------------------------
def test_wrong_codes_are_throttled_per_challenge_and_per_user(tenant, settings):
    settings.TWO_FACTOR_RATE_PER_CHALLENGE = "3/5minutes"
    settings.TWO_FACTOR_RATE_PER_USER = "5/15minutes"
    user = testing.create_user(tenant, "viewer", email="guess@example.com")
    totp, _ = enable(tenant, user)  # one attempt of the user's 5
    token = challenge(tenant, "guess@example.com")
    wrong = "000000" if next_code(tenant, user, totp) != "000000" else "111111"
    assert [second_step(tenant, token, wrong).status_code for _ in range(3)] == [400, 400, 400]
    throttled = second_step(tenant, token, next_code(tenant, user, totp))
    assert throttled.status_code == 429 and throttled.json()["error"] == "rate_limited"
    assert int(throttled["Retry-After"]) > 0
    # a new challenge has its own allowance, but the user's is used up after one more attempt
    fresh = challenge(tenant, "guess@example.com")
    assert second_step(tenant, fresh, wrong).status_code == 400
    assert second_step(tenant, fresh, next_code(tenant, user, totp)).status_code == 429


# --- recovery codes -----------------------------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_a_recovery_code_signs_in_once_and_the_user_is_told(make_tenant, smtp, mail_worker):
    tenant = make_tenant()
    user = testing.create_user(tenant, "editor", email="lost@example.com")
    _, codes = enable(tenant, user)
    reply = second_step(tenant, challenge(tenant, "lost@example.com"), codes[3].upper().replace("-", " "))
    assert reply.status_code == 200, reply.content
    [message] = smtp.wait_for(1)
    text, html = parts(message)
    assert message["To"] == "lost@example.com" and "recovery code" in message["Subject"]
    assert "9 recovery codes left" in text and tenant.name in html
    assert any(url.endswith("/dashboard/account#two-factor") for url in links(message))
    used_again = second_step(tenant, challenge(tenant, "lost@example.com"), codes[3])
    assert used_again.status_code == 400 and used_again.json()["code"] == "two_factor_invalid"
    assert testing.Api(tenant, user=user).get("/api/auth/2fa").json()["recoveryCodesLeft"] == 9


def test_new_recovery_codes_need_a_code_and_replace_the_old_ones(tenant):
    user = testing.create_user(tenant, "viewer", email="fresh@example.com")
    totp, old = enable(tenant, user)
    api = testing.Api(tenant, user=user)
    refused = api.post("/api/auth/2fa/recovery-codes", {"code": "12345"})
    assert refused.status_code == 400 and refused.json()["code"] == "two_factor_invalid"
    away_from_step_edge()
    renewed = api.post("/api/auth/2fa/recovery-codes", {"code": next_code(tenant, user, totp)})
    assert renewed.status_code == 200, renewed.content
    new = renewed.json()["recoveryCodes"]
    assert len(new) == 10 and not set(new) & set(old)
    assert second_step(tenant, challenge(tenant, "fresh@example.com"), old[0]).status_code == 400
    assert second_step(tenant, challenge(tenant, "fresh@example.com"), new[0]).status_code == 200


# --- turning it off -----------------------------------------------------------------------------------
def test_disable_needs_the_password_and_a_code(tenant):
    user = testing.create_user(tenant, "author", email="off@example.com")
    totp, codes = enable(tenant, user)
    api = testing.Api(tenant, user=user)
    no_code = api.post("/api/auth/2fa/disable", {"password": PASSWORD})
    assert no_code.status_code == 400 and no_code.json()["errors"][0]["field"] == "code"
    bad_password = api.post("/api/auth/2fa/disable", {"password": "wrong-password", "code": codes[0]})
    assert bad_password.status_code == 400 and bad_password.json()["errors"][0]["field"] == "password"
    bad_code = api.post("/api/auth/2fa/disable", {"password": PASSWORD, "code": "999999"})
    assert bad_code.status_code == 400 and bad_code.json()["code"] == "two_factor_invalid"
    assert api.get("/api/auth/me").json()["twoFactorEnabled"] is True
    away_from_step_edge()
    off = api.post("/api/auth/2fa/disable", {"password": PASSWORD, "code": next_code(tenant, user, totp)})
    assert off.status_code == 200, off.content
    assert api.get("/api/auth/me").json()["twoFactorEnabled"] is False
    assert password_step(tenant, "off@example.com").status_code == 200
    # a recovery code of the old setup does nothing any more
    assert api.post("/api/auth/2fa/disable", {"password": PASSWORD, "code": codes[1]}).status_code == 409


# --- an admin's reset ---------------------------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_an_admin_resets_a_users_two_factor_and_the_user_is_told(make_tenant, smtp, mail_worker):
    tenant, other = make_tenant(), make_tenant()
    admin = testing.tenant_admin(tenant)
    user = testing.create_user(tenant, "editor", email="phone-lost@example.com")
    enable(tenant, user)
    api = testing.Api(tenant, user=admin)
    # another company's admin, a non-admin, and the admin on themself are refused
    foreign = testing.Api(other, user=testing.tenant_admin(other)).post(f"/api/users/{user.pk}/2fa/reset")
    assert foreign.status_code == 404
    assert testing.Api(tenant, user=testing.create_user(tenant, "editor")).post(
        f"/api/users/{user.pk}/2fa/reset").status_code == 403
    assert api.post(f"/api/users/{admin.pk}/2fa/reset").status_code == 403

    reply = api.post(f"/api/users/{user.pk}/2fa/reset")
    assert reply.status_code == 200 and reply.json()["user"]["twoFactorEnabled"] is False
    assert api.post(f"/api/users/{user.pk}/2fa/reset").status_code == 409
    assert password_step(tenant, "phone-lost@example.com").status_code == 200
    [message] = smtp.wait_for(1)
    text, _ = parts(message)
    assert message["To"] == "phone-lost@example.com" and admin.username in text
    with schema_context(tenant.schema_name):
        entry = AuditEntry.objects.get(action="user.two_factor_reset")
        assert entry.actor_id == admin.pk and entry.object_id == str(user.pk)


# --- the company's requirement ------------------------------------------------------------------------
def test_required_two_factor_lets_a_user_without_it_only_set_it_up(tenant):
    admin = testing.tenant_admin(tenant)
    admin_api = testing.Api(tenant, user=admin)
    enable(tenant, admin)
    viewer = testing.create_user(tenant, "viewer", email="later@example.com")
    assert testing.Api(tenant, user=viewer).get("/api/client/two-factor-policy").status_code == 403
    policy = admin_api.put("/api/client/two-factor-policy", {"required": True})
    assert policy.status_code == 200 and policy.json()["required"] is True
    assert policy.json()["usersWithoutTwoFactor"] == 1
    assert admin_api.put("/api/client/two-factor-policy", {"required": "yes"}).status_code == 400

    # the password still gives a token (no second step yet) ...
    login = password_step(tenant, "later@example.com")
    assert login.status_code == 200
    api = testing.Api(tenant, token=login.json()["token"])
    # ... but every dashboard call answers 403 two_factor_setup_required, except the setup's own
    for path in ("/api/posts", "/api/client/info", "/api/users", f"/api/users/{admin.pk}"):
        blocked = api.get(path)
        assert blocked.status_code == 403 and blocked.json()["code"] == "two_factor_setup_required", path
        assert "Your company requires two-factor sign-in" in blocked.json()["message"]
    me = api.get("/api/auth/me").json()
    assert me["twoFactorRequired"] is True and me["twoFactorEnabled"] is False
    assert api.get(f"/api/users/{viewer.pk}").status_code == 200  # the account page
    assert api.get("/api/auth/2fa").json()["required"] is True
    away_from_step_edge()
    assert api.post("/api/auth/2fa/setup").status_code == 200
    totp = stored_totp(tenant, viewer)
    assert api.post("/api/auth/2fa/confirm", {"code": totp.now()}).status_code == 200
    assert api.get("/api/posts").status_code == 200  # set up: everything answers again
    # the admin lifts the requirement
    assert admin_api.put("/api/client/two-factor-policy", {"required": False}).json()["required"] is False
    with schema_context(tenant.schema_name):
        assert AuditEntry.objects.filter(action="settings.updated", summary__contains="two-factor").count() == 2


def test_an_admin_without_two_factor_is_held_to_the_requirement_too(tenant):
    admin = testing.tenant_admin(tenant)
    api = testing.Api(tenant, user=admin)
    assert api.put("/api/client/two-factor-policy", {"required": True}).status_code == 200
    other = testing.create_user(tenant, "editor")
    blocked = api.put(f"/api/users/{other.pk}", {"role": "viewer"})
    assert blocked.status_code == 403 and blocked.json()["code"] == "two_factor_setup_required"
    assert api.get("/api/client/two-factor-policy").json()["code"] == "two_factor_setup_required"


# --- races (real server, requests released together) -----------------------------------------------
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_two_confirmations_at_once_enable_once(live_app, make_tenant):
    tenant = make_tenant()
    user = testing.create_user(tenant, "editor")
    token = testing.token_for(tenant, user)
    away_from_step_edge()
    assert live_app.request("POST", tenant, "/api/auth/2fa/setup", token=token).status_code == 200
    code = stored_totp(tenant, user).now()
    replies = testing.parallel([
        lambda: live_app.request("POST", tenant, "/api/auth/2fa/confirm", token=token, json_body={"code": code})
        for _ in range(2)])
    statuses = sorted(reply.status_code for reply in replies)
    assert statuses[0] == 200 and statuses[1] in (400, 409), (statuses, live_app.log())
    winners = [reply.json()["recoveryCodes"] for reply in replies if reply.status_code == 200]
    with schema_context(tenant.schema_name):
        stored = User.objects.get(pk=user.pk).two_factor_recovery_codes
    assert len(winners) == 1 and len(stored) == 10  # the codes shown are the codes kept


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_one_recovery_code_used_twice_at_once_signs_in_once(live_app, make_tenant):
    tenant = make_tenant()
    user = testing.create_user(tenant, "viewer", email="race@example.com")
    _, codes = enable(tenant, user)
    for code in codes[:2]:
        challenges = [challenge(tenant, "race@example.com") for _ in range(2)]
        replies = testing.parallel([
            lambda c=c: live_app.request("POST", tenant, "/api/auth/login/2fa",
                                         json_body={"challengeToken": c, "code": code})
            for c in challenges])
        statuses = Counter(reply.status_code for reply in replies)
        assert statuses == Counter({200: 1, 400: 1}), (statuses, live_app.log())
    with schema_context(tenant.schema_name):
        assert len(User.objects.get(pk=user.pk).two_factor_recovery_codes) == 8
