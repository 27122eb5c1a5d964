"""The operator console on the root domain: platform staff only, always with an authenticator code;
a company's admin is refused; each action calls the company's service and is audited."""
from __future__ import annotations

import pyotp
import pytest
from django.test import Client as HttpClient
from django_tenants.utils import schema_context

from apps.core import testing
from lifecycle.operator.models import OperatorAction, OperatorBackup
from lifecycle.operator.services import backup_run
from lifecycle.operator.tests.conftest import PASSWORD
from apps.plans.models import UsageDay
from tenants.models import Client


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def browser(host=None, **kw) -> HttpClient:
    return HttpClient(HTTP_HOST=testing.host_of(host), **kw)


def signed_in(operator, **kw) -> HttpClient:
    web = browser(**kw)
    assert web.post("/operator/login", {"email": "ops@platform.example", "password": PASSWORD}).status_code == 302
    reply = web.post("/operator/code", {"code": pyotp.TOTP(operator.secret).now()})
    assert reply.status_code == 302 and reply["Location"] == "/operator/"
    return web


def test_sign_in_takes_the_password_and_an_authenticator_code(operator, tenant):
    web = browser()
    assert web.get("/operator/")["Location"] == "/operator/login"
    wrong = web.post("/operator/login", {"email": "ops@platform.example", "password": "nope"})
    assert wrong.status_code == 400 and b"Wrong email or password" in wrong.content
    assert web.post("/operator/login", {"email": "ops@platform.example", "password": PASSWORD}).status_code == 302
    # the password alone opens nothing
    assert web.get("/operator/")["Location"] == "/operator/login"
    assert web.post("/operator/code", {"code": "000000"}).status_code == 400
    code = pyotp.TOTP(operator.secret).now()
    assert web.post("/operator/code", {"code": code}).status_code == 302
    page = web.get("/operator/")
    assert page.status_code == 200 and tenant.subdomain.encode() in page.content
    assert "form-action 'self'" in page["Content-Security-Policy"] and page["Cache-Control"].startswith("max-age=0")
    # a code works once
    again = browser()
    again.post("/operator/login", {"email": "ops@platform.example", "password": PASSWORD})
    assert again.post("/operator/code", {"code": code}).status_code == 400
    assert list(OperatorAction.objects.order_by("at", "id").values_list("action", flat=True)) == [
        "sign_in_refused", "code_refused", "signed_in", "code_refused"]


def test_a_company_admin_is_refused(operator, tenant, admin):
    web = browser()
    refused = web.post("/operator/login", {"email": admin.email, "password": testing.DEFAULT_PASSWORD})
    assert refused.status_code == 400 and b"Wrong email or password" in refused.content
    # the company's own token means nothing here
    token = testing.token_for(tenant, admin)
    assert browser().get("/operator/", HTTP_AUTHORIZATION=f"Bearer {token}")["Location"] == "/operator/login"
    # and the console is not on a company's host
    on_company = browser(tenant).get("/operator/")
    assert on_company.status_code in (200, 404) and b"Operator console" not in on_company.content


def test_forms_need_the_csrf_token(operator):
    strict = browser(enforce_csrf_checks=True)
    assert strict.post("/operator/login", {"email": "ops@platform.example", "password": PASSWORD}).status_code == 403
    form = strict.get("/operator/login")
    token = form.cookies["csrftoken"].value
    reply = strict.post("/operator/login", {"email": "ops@platform.example", "password": PASSWORD,
                                            "csrfmiddlewaretoken": token})
    assert reply.status_code == 302


def test_every_page_gives_its_forms_a_working_csrf_token(operator, tenant):
    import re

    strict = browser(enforce_csrf_checks=True)

    def token_of(reply) -> str:
        return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', reply.content.decode()).group(1)

    login = strict.get("/operator/login")
    assert strict.post("/operator/login", {"email": "ops@platform.example", "password": PASSWORD,
                                           "csrfmiddlewaretoken": token_of(login)}).status_code == 302
    code = strict.get("/operator/code")
    assert strict.post("/operator/code", {"code": pyotp.TOTP(operator.secret).now(),
                                          "csrfmiddlewaretoken": token_of(code)}).status_code == 302
    page = strict.get(f"/operator/companies/{tenant.subdomain}")
    assert strict.post(f"/operator/companies/{tenant.subdomain}/suspend").status_code == 403  # no token
    assert strict.post(f"/operator/companies/{tenant.subdomain}/suspend",
                       {"csrfmiddlewaretoken": token_of(page)}).status_code == 302
    assert Client.objects.get(pk=tenant.pk).status == "suspended"


def test_a_deactivated_operator_is_signed_out(operator):
    web = signed_in(operator)
    assert web.get("/operator/").status_code == 200
    type(operator).objects.filter(pk=operator.pk).update(active=False)
    assert web.get("/operator/")["Location"] == "/operator/login"


def test_companies_list_searches_filters_and_shows_usage(operator, make_tenant):
    acme, other = make_tenant("acme-ops"), make_tenant("beta-ops", plan="business")
    from django.utils import timezone

    UsageDay.objects.create(client_id=acme.pk, day=timezone.now().date(), metric="api_requests", value=1234)
    web = signed_in(operator)
    page = web.get("/operator/", {"q": "acme"}).content.decode()
    assert "acme-ops" in page and "beta-ops" not in page and "1234" in page
    by_plan = web.get("/operator/", {"plan": "business"}).content.decode()
    assert "beta-ops" in by_plan and "acme-ops" not in by_plan


def test_each_action_calls_the_service_and_is_audited(operator, make_tenant):
    company = make_tenant("gamma-ops", verified=False)
    web = signed_in(operator)
    base = f"/operator/companies/{company.subdomain}"
    assert web.get(base).status_code == 200

    assert web.post(f"{base}/suspend").status_code == 302
    assert Client.objects.get(pk=company.pk).status == "suspended"
    assert testing.Api(company, user=testing.tenant_admin(company)).get("/api/posts").status_code == 403
    assert web.post(f"{base}/reactivate").status_code == 302
    assert Client.objects.get(pk=company.pk).status == "active"

    old_key = Client.objects.get(pk=company.pk).api_key
    assert web.post(f"{base}/rotate-keys").status_code == 302
    assert Client.objects.get(pk=company.pk).api_key != old_key

    assert web.post(f"{base}/resend-verification").status_code == 302

    changed = web.post(f"{base}/plan", {"plan": "business", "limit_posts": "5000", "limit_staff_seats": "unlimited",
                                        "trial_ends_at": ""})
    assert changed.status_code == 302
    fresh = Client.objects.get(pk=company.pk)
    assert fresh.subscription_plan == "business" and fresh.plan_overrides == {"posts": 5000, "staff_seats": None}
    bad = web.post(f"{base}/plan", {"plan": "business", "limit_posts": "lots"})
    assert bad.status_code == 400 and b"whole number" in bad.content

    assert web.post(f"{base}/backup").status_code == 302  # queued (made by a worker: test_backups.py)
    [queued] = OperatorBackup.objects.filter(client_id=company.pk)
    assert queued.status == "queued" and "Queued" in web.get(base).content.decode()
    assert web.get(f"{base}/backups/{queued.pk}").status_code == 404  # nothing to download yet
    backup_run(backup_id=queued.pk)  # what the worker does
    download = web.get(f"{base}/backups/{queued.pk}")
    assert download.status_code == 200 and b"".join(download.streaming_content)[:2] == b"\x1f\x8b"  # gzip

    refused = web.post(f"{base}/delete", {"confirm": "wrong"})
    assert refused.status_code == 400 and Client.objects.filter(pk=company.pk).exists()
    assert web.post(f"{base}/delete", {"confirm": company.subdomain}).status_code == 302
    assert not Client.objects.filter(pk=company.pk).exists()

    actions = list(OperatorAction.objects.filter(company=company.subdomain).order_by("at", "id")
                   .values_list("action", "operator_email"))
    assert [a for a, _ in actions] == ["suspended", "reactivated", "keys_rotated", "verification_resent",
                                       "plan_changed", "backup_started", "backup_downloaded", "deleted"]
    assert {email for _, email in actions} == {"ops@platform.example"}
    log = web.get("/operator/audit", {"company": company.subdomain}).content.decode()
    assert "plan_changed" in log and "deleted" in log


def test_a_plan_change_restores_an_ended_trial_at_once(operator, tenant):
    from datetime import timedelta

    from django.utils import timezone

    Client.objects.filter(pk=tenant.pk).update(trial_ends_at=timezone.now() - timedelta(days=30))
    api = testing.Api(tenant, user=testing.tenant_admin(tenant))
    body = {"url": "https://example.com/h", "events": ["post.published"]}
    assert api.post("/api/webhooks", body).json()["code"] == "plan_expired"
    assert testing.Api(tenant).get("/api/v1/posts", HTTP_X_API_KEY=tenant.api_key).status_code == 402
    web = signed_in(operator)
    assert web.post(f"/operator/companies/{tenant.subdomain}/plan", {"plan": "starter"}).status_code == 302
    assert api.post("/api/webhooks", body).status_code == 201
    assert testing.Api(tenant).get("/api/v1/posts", HTTP_X_API_KEY=tenant.api_key).status_code == 200
    with schema_context(tenant.schema_name):
        from apps.accounts.models import User

        assert User.objects.exists()  # nothing was deleted


def test_an_operator_switches_a_feature_for_one_company_and_it_is_audited(operator, tenant):
    web = signed_in(operator)
    base = f"/operator/companies/{tenant.subdomain}"
    assert 'name="feature_ai_writing"' in web.get(base).content.decode()
    api = testing.Api(tenant, user=testing.tenant_admin(tenant))
    hook = {"url": "https://example.com/h", "events": ["post.published"]}

    assert web.post(f"{base}/plan", {"plan": "trial", "feature_webhooks": "off"}).status_code == 302
    assert Client.objects.get(pk=tenant.pk).plan_overrides == {"features": {"webhooks": False}}
    refused = api.post("/api/webhooks", hook)
    assert refused.status_code == 403 and refused.json()["code"] == "plan_feature"
    page = web.get(base).content.decode()
    assert "Webhooks (plan: on; now off)" in page

    assert web.post(f"{base}/plan", {"plan": "trial", "feature_webhooks": "plan"}).status_code == 302
    assert api.post("/api/webhooks", hook).status_code == 201
    bad = web.post(f"{base}/plan", {"plan": "trial", "feature_webhooks": "maybe"})
    assert bad.status_code == 400 and b"feature switch" in bad.content

    [first, second] = OperatorAction.objects.filter(company=tenant.subdomain, action="plan_changed").order_by("id")
    assert first.detail["after"]["overrides"] == {"features": {"webhooks": False}}
    assert second.detail["before"]["overrides"] == {"features": {"webhooks": False}}
