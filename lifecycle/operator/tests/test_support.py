"""Signing in as a company user for support: only under the company admin's grant, for a limited
time, through a one-time link; the session's token stops working when the grant ends or is revoked
or the session is ended; audited in the company's log ("support (operator) as user") and in the
operator audit log (start and end); never across companies, never by a company admin."""
from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlsplit

from django.utils import timezone
from django_tenants.utils import schema_context

from apps.accounts.models import SupportGrant, SupportSession
from apps.audit.models import AuditEntry
from apps.core import testing
from lifecycle.operator.models import OperatorAction
from lifecycle.operator.tests.test_console import signed_in

OPERATOR = "ops@platform.example"


def grant(api, hours: int = 2) -> dict:
    reply = api.post("/api/client/support-access", {"hours": hours})
    assert reply.status_code == 200, reply.content
    return reply.json()


def sign_in_as(web, company, user):
    return web.post(f"/operator/companies/{company.subdomain}/sign-in-as/{user.pk}")


def link_of(reply, company) -> str:
    """The one-time token of the console's "Open the dashboard" link (on the company's host)."""
    assert reply.status_code == 200, reply.content
    page = reply.content.decode()
    address = page.split('id="open-dashboard" href="')[1].split('"')[0].replace("&amp;", "&")
    parts = urlsplit(address)
    assert parts.netloc == testing.host_of(company) and parts.path == "/support-session"
    return parts.fragment.removeprefix("token=")


def exchange(company, link: str):
    return testing.Api(company).post("/api/client/support-access/exchange", {"token": link})


def company_log(company) -> list[tuple[str, str]]:
    with schema_context(company.schema_name):
        return list(AuditEntry.objects.order_by("created_at", "id").values_list("action", "actor_name"))


def test_without_a_grant_sign_in_as_is_refused_and_not_offered(operator, tenant):
    user = testing.create_user(tenant, "editor", username="edna")
    web = signed_in(operator)
    page = web.get(f"/operator/companies/{tenant.subdomain}").content.decode()
    assert "Sign in as edna" not in page and "needs the company's consent" in page
    refused = sign_in_as(web, tenant, user)
    assert refused.status_code == 403 and "has not granted support access" in refused.content.decode()
    with schema_context(tenant.schema_name):
        assert not SupportSession.objects.exists()
    assert OperatorAction.objects.filter(action="support_refused", company=tenant.subdomain).count() == 1


def test_a_granted_session_signs_in_as_the_user_once_and_is_audited_on_both_sides(operator, tenant):
    admin = testing.tenant_admin(tenant)
    user = testing.create_user(tenant, "editor", username="edna")
    access = grant(testing.Api(tenant, user=admin), hours=3)
    assert access["grant"]["grantedBy"] == admin.username and access["maxHours"] == 24
    web = signed_in(operator)
    assert "Sign in as edna" in web.get(f"/operator/companies/{tenant.subdomain}").content.decode()

    link = link_of(sign_in_as(web, tenant, user), tenant)
    signed = exchange(tenant, link)
    assert signed.status_code == 200, signed.content
    body = signed.json()
    assert body["username"] == "edna" and body["operator"] == OPERATOR
    assert 3500 <= body["expiresIn"] <= 3600  # at most an hour, whatever the grant
    assert exchange(tenant, link).status_code == 401  # the link works once

    support = testing.Api(tenant, token=body["token"])
    me = support.get("/api/auth/me").json()
    assert me["user"]["username"] == "edna" and me["support"]["operator"] == OPERATOR
    assert "support" not in testing.Api(tenant, user=user).get("/api/auth/me").json()  # her own sessions
    assert support.post("/api/tags/add", {"name": "Support made", "slug": "support-made"}).status_code == 201
    # no password is set, nor the user's two-factor sign-in changed, by support
    assert support.put(f"/api/users/{user.pk}", {"password": "new-password-123"}).status_code == 403
    assert support.post("/api/auth/2fa/setup").status_code == 403

    named = f"support ({OPERATOR}) as edna"
    log = company_log(tenant)
    assert ("support.granted", admin.username) in log
    assert ("support.started", named) in log and ("tag.created", named) in log

    assert support.post("/api/client/support-access/end").status_code == 200
    assert support.get("/api/auth/me").status_code == 401
    assert ("support.ended", named) in company_log(tenant)
    actions = list(OperatorAction.objects.filter(company=tenant.subdomain, action__startswith="support")
                   .order_by("id").values_list("action", "operator_email"))
    assert actions == [("support_started", OPERATOR), ("support_ended", OPERATOR)]
    # only a support session ends itself
    assert testing.Api(tenant, user=user).post("/api/client/support-access/end").status_code == 403


def test_the_session_ends_with_the_grant(operator, tenant):
    admin_api = testing.Api(tenant, user=testing.tenant_admin(tenant))
    user = testing.create_user(tenant, "author")
    grant(admin_api, hours=1)
    web = signed_in(operator)
    with schema_context(tenant.schema_name):
        SupportGrant.objects.update(expires_at=timezone.now() + timedelta(minutes=10))
    token = exchange(tenant, link_of(sign_in_as(web, tenant, user), tenant)).json()
    assert token["expiresIn"] <= 600  # never past the grant
    support = testing.Api(tenant, token=token["token"])
    assert support.get("/api/auth/me").status_code == 200

    with schema_context(tenant.schema_name):  # the grant's end has come
        SupportGrant.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert support.get("/api/auth/me").status_code == 401
    refused = sign_in_as(web, tenant, user)
    assert refused.status_code == 403  # an expired grant allows no new session
    assert admin_api.get("/api/client/support-access").json()["grant"] is None


def test_revoking_the_grant_stops_the_token_at_once(operator, tenant):
    admin_api = testing.Api(tenant, user=testing.tenant_admin(tenant))
    user = testing.create_user(tenant, "viewer", username="vic")
    grant(admin_api)
    web = signed_in(operator)
    unused = link_of(sign_in_as(web, tenant, user), tenant)
    support = testing.Api(tenant, token=exchange(tenant, link_of(sign_in_as(web, tenant, user), tenant))
                          .json()["token"])
    assert support.get("/api/posts").status_code == 200

    revoked = admin_api.delete("/api/client/support-access")
    assert revoked.status_code == 200 and revoked.json()["grant"] is None
    assert support.get("/api/posts").status_code == 401
    assert exchange(tenant, unused).status_code == 401  # a link not used yet stops working too
    assert sign_in_as(web, tenant, user).status_code == 403
    ended = OperatorAction.objects.filter(company=tenant.subdomain, action="support_ended")
    assert ended.count() == 2 and {a.detail["why"] for a in ended} == {"support access revoked"}
    assert ("support.revoked", testing.tenant_admin(tenant).username) in company_log(tenant)


def test_grant_hours_are_checked_and_only_admins_grant(tenant, role_api):
    admin_api = role_api("admin")
    for hours in (0, 25, -1):
        reply = admin_api.post("/api/client/support-access", {"hours": hours})
        assert reply.status_code == 400 and reply.json()["errors"][0]["field"] == "hours"
    assert admin_api.post("/api/client/support-access", {"hours": "soon"}).status_code == 400
    fraction = admin_api.post("/api/client/support-access", {"hours": 2.5})
    assert fraction.status_code == 400 and fraction.json()["errors"] == [
        {"field": "hours", "message": "Hours must be a whole number"}]
    for role in ("editor", "author", "viewer"):
        assert role_api(role).post("/api/client/support-access", {"hours": 2}).status_code == 403


def test_a_company_admin_cannot_use_the_console_route(tenant):
    admin = testing.tenant_admin(tenant)
    testing.Api(tenant, user=admin).post("/api/client/support-access", {"hours": 2})
    token = testing.token_for(tenant, admin)
    root = testing.Api(None, token=token)
    reply = root.post(f"/operator/companies/{tenant.subdomain}/sign-in-as/{admin.pk}")
    assert reply.status_code in (302, 403) and reply.get("Location", "/operator/login") == "/operator/login"
    with schema_context(tenant.schema_name):
        assert not SupportSession.objects.exists()


def test_nothing_crosses_companies(operator, make_tenant):
    first, second = make_tenant("support-one"), make_tenant("support-two")
    grant(testing.Api(first, user=testing.tenant_admin(first)))
    grant(testing.Api(second, user=testing.tenant_admin(second)))
    web = signed_in(operator)
    stranger = testing.create_user(second, "editor")
    # a user of the second company through the first company's page: not found there
    refused = sign_in_as(web, first, stranger)
    assert refused.status_code == 403 and "User not found" in refused.content.decode()
    made_up = web.post(f"/operator/companies/{first.subdomain}/sign-in-as/not-a-user")
    assert made_up.status_code == 403 and "User not found" in made_up.content.decode()
    # the first company's link on the second company's host, and its token there: refused
    user = testing.create_user(first, "editor")
    link = link_of(sign_in_as(web, first, user), first)
    assert exchange(second, link).status_code == 401
    token = exchange(first, link).json()["token"]
    assert testing.Api(second, token=token).get("/api/auth/me").status_code == 401
    assert testing.Api(first, token=token).get("/api/auth/me").status_code == 200
    # a company's grant is its own
    with schema_context(second.schema_name):
        assert not SupportSession.objects.exists()
