"""The console's sessions live on the server: signing out ends them (a cookie captured before is
refused after), the step between password and code works once and briefly, a session ends when
idle and at its absolute end, a password change or a new authenticator key ends the others, and a
cookie cannot be altered to act as another operator."""
from __future__ import annotations

from datetime import timedelta

import pyotp
import pytest
import time_machine
from django.contrib.auth.hashers import make_password
from django.core import signing
from django.utils import timezone

from lifecycle.operator import session
from lifecycle.operator.models import OperatorAccount, OperatorAction
from lifecycle.operator.services import operator_create
from lifecycle.operator.tests.conftest import PASSWORD
from lifecycle.operator.tests.test_console import browser, signed_in
from tenants.models import Client

EMAIL = "ops@platform.example"
NEW_PASSWORD = "a-brand-new-password-456"


def cookie_of(web) -> str:
    return web.cookies[session.COOKIE].value


def with_cookie(value: str):
    """A browser that never signed in, sending a captured cookie."""
    web = browser()
    web.cookies[session.COOKIE] = value
    return web


def next_code(operator) -> str:
    """The authenticator's code, usable again (as the app's next code would be: a code works once)."""
    OperatorAccount.objects.filter(pk=operator.pk).update(totp_last_step=0)
    return pyotp.TOTP(operator.secret).now()


def another_session(operator):
    OperatorAccount.objects.filter(pk=operator.pk).update(totp_last_step=0)
    return signed_in(operator)


def opens_the_console(web) -> bool:
    reply = web.get("/operator/")
    if reply.status_code == 302:
        assert reply["Location"] == "/operator/login"
        return False
    assert reply.status_code == 200
    return True


def test_a_cookie_captured_before_sign_out_is_refused_after_it(operator, tenant):
    web = signed_in(operator)
    captured = cookie_of(web)
    assert opens_the_console(with_cookie(captured))
    out = web.post("/operator/logout")
    assert out.status_code == 302 and out["Location"] == "/operator/login"
    assert not opens_the_console(web)

    replay = with_cookie(captured)
    assert not opens_the_console(replay)
    assert replay.get("/operator/audit")["Location"] == "/operator/login"
    acted = replay.post(f"/operator/companies/{tenant.subdomain}/suspend")
    assert acted.status_code == 302 and acted["Location"] == "/operator/login"
    assert Client.objects.get(pk=tenant.pk).status != "suspended"

    signed, ended = (OperatorAction.objects.get(action=name) for name in ("signed_in", "signed_out"))
    assert signed.detail["session"] == ended.detail["session"] and ended.operator_email == EMAIL


def test_the_password_step_cookie_works_once(operator):
    web = browser()
    assert web.post("/operator/login", {"email": EMAIL, "password": PASSWORD}).status_code == 302
    step = cookie_of(web)
    assert web.post("/operator/code", {"code": pyotp.TOTP(operator.secret).now()})["Location"] == "/operator/"
    assert cookie_of(web) != step  # the signed-in session has a key of its own

    replay = with_cookie(step)
    assert replay.get("/operator/code")["Location"] == "/operator/login"
    again = replay.post("/operator/code", {"code": next_code(operator)})
    assert again.status_code == 302 and again["Location"] == "/operator/login"
    assert not opens_the_console(replay)
    assert OperatorAction.objects.filter(action="signed_in").count() == 1

    # signing out during the password step ends it too
    other = browser()
    other.post("/operator/login", {"email": EMAIL, "password": PASSWORD})
    step = cookie_of(other)
    assert other.get("/operator/code").status_code == 200
    assert other.post("/operator/logout")["Location"] == "/operator/login"
    replay = with_cookie(step)
    assert replay.get("/operator/code")["Location"] == "/operator/login"
    assert replay.post("/operator/code", {"code": next_code(operator)})["Location"] == "/operator/login"
    assert OperatorAction.objects.filter(action="signed_in").count() == 1


def test_a_session_idle_too_long_is_refused(operator, settings):
    settings.OPERATOR_SESSION_IDLE_SECONDS = 600
    web = signed_in(operator)
    start = timezone.now()
    with time_machine.travel(start + timedelta(seconds=500), tick=False):
        assert opens_the_console(web)
    with time_machine.travel(start + timedelta(seconds=1000), tick=False):
        assert opens_the_console(web)  # 500 seconds after its last use
    with time_machine.travel(start + timedelta(seconds=1700), tick=False):
        assert not opens_the_console(web)  # 700 seconds without a request
    with time_machine.travel(start + timedelta(seconds=1710), tick=False):
        assert not opens_the_console(web)  # the refusal did not count as a use


def test_sessions_end_at_their_absolute_end(operator, settings):
    settings.OPERATOR_SESSION_SECONDS = 3600
    settings.OPERATOR_SESSION_IDLE_SECONDS = 1800
    settings.OPERATOR_PASSWORD_STEP_SECONDS = 300
    start = timezone.now()
    # the step between password and code lasts minutes
    waited = browser()
    waited.post("/operator/login", {"email": EMAIL, "password": PASSWORD})
    with time_machine.travel(start + timedelta(seconds=301), tick=False):
        assert waited.get("/operator/code")["Location"] == "/operator/login"
        assert waited.post("/operator/code", {"code": pyotp.TOTP(operator.secret).now()})["Location"] == \
            "/operator/login"
    # a console in use ends at its absolute end all the same
    web = signed_in(operator)
    for seconds in (1000, 2000, 3000, 3500):
        with time_machine.travel(start + timedelta(seconds=seconds), tick=False):
            assert opens_the_console(web), seconds
    with time_machine.travel(start + timedelta(seconds=3700), tick=False):
        assert not opens_the_console(web)


def test_a_password_change_ends_the_other_sessions(operator):
    here, elsewhere = signed_in(operator), another_session(operator)
    assert opens_the_console(elsewhere)
    wrong = here.post("/operator/account", {"action": "password", "password": "not-it-at-all",
                                            "new_password": NEW_PASSWORD, "repeat": NEW_PASSWORD})
    assert wrong.status_code == 400 and b"The current password is wrong" in wrong.content
    assert opens_the_console(elsewhere)

    changed = here.post("/operator/account", {"action": "password", "password": PASSWORD,
                                              "new_password": NEW_PASSWORD, "repeat": NEW_PASSWORD})
    assert changed.status_code == 200 and b"Every other session of your account has ended" in changed.content
    assert opens_the_console(here)
    assert not opens_the_console(elsewhere)
    assert OperatorAction.objects.get(action="password_changed").detail == {"sessionsEnded": 1}
    assert browser().post("/operator/login", {"email": EMAIL, "password": PASSWORD}).status_code == 400
    assert browser().post("/operator/login", {"email": EMAIL, "password": NEW_PASSWORD}).status_code == 302


@pytest.mark.parametrize("change", ["password", "authenticator key", "session version"])
def test_credentials_changed_anywhere_end_every_session(operator, change):
    web = signed_in(operator)
    step = browser()
    step.post("/operator/login", {"email": EMAIL, "password": PASSWORD})
    values = {"password": {"password": make_password("changed-by-a-command-1")},
              "authenticator key": {"totp_secret": "another-sealed-key"},
              "session version": {"session_version": 1}}[change]
    OperatorAccount.objects.filter(pk=operator.pk).update(**values)
    assert not opens_the_console(web)
    assert step.get("/operator/code")["Location"] == "/operator/login"


def test_sign_out_everywhere_ends_every_session(operator):
    here, elsewhere = signed_in(operator), another_session(operator)
    page = here.get("/operator/account").content.decode()
    assert page.count("<tr><td>") == 2 and "this browser" in page
    out = here.post("/operator/account", {"action": "sign-out-everywhere"})
    assert out.status_code == 302 and out["Location"] == "/operator/login"
    assert not opens_the_console(here) and not opens_the_console(elsewhere)
    assert OperatorAction.objects.get(action="signed_out_everywhere").detail == {"sessions": 2}


def test_a_cookie_cannot_be_altered_to_act_as_another_operator(operator):
    other, _secret = operator_create(email="second@platform.example", password=PASSWORD + "x")
    web = signed_in(operator)
    mine = cookie_of(web)
    assert EMAIL in web.get("/operator/").content.decode()

    # altered without the server's key: its signature fails
    payload, _, signature = mine.rpartition(":")
    assert not opens_the_console(with_cookie(payload.replace(payload[0], "A" if payload[0] != "A" else "B", 1)
                                             + ":" + signature))
    # even signed by the server's key, a cookie that names the other operator is no session of theirs
    data = signing.loads(mine, salt=session.SALT)
    for forged in ({**data, "o": other.pk}, {"o": other.pk, "s": "code", "v": other.session_version},
                   {"k": "a-key-no-session-has", "o": other.pk}):
        replay = with_cookie(signing.dumps(forged, salt=session.SALT))
        assert not opens_the_console(replay), forged
        assert replay.get("/operator/account")["Location"] == "/operator/login"
    assert opens_the_console(web)
    assert not OperatorAction.objects.filter(operator=other).exists()
