"""Support access under concurrency, over real HTTP (the `live_app` server, requests released
together): two admins granting at once both succeed and leave one open grant; one support link
traded twice at once gives one session token and one 401."""
from __future__ import annotations

import pytest
from django_tenants.utils import schema_context

from apps.accounts.models import SupportGrant, SupportSession
from apps.accounts.support import support_grant_active, support_session_start
from apps.core.testing import create_user, parallel, tenant_admin, token_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]

ROUNDS = 3


def test_two_admins_granting_at_once_leave_one_open_grant(live_app, make_tenant):
    tenant = make_tenant()
    tokens = [token_for(tenant, tenant_admin(tenant)), token_for(tenant, create_user(tenant, "admin"))]
    for _ in range(ROUNDS):
        responses = parallel([
            lambda token=token: live_app.request("POST", tenant, "/api/client/support-access", token=token,
                                                 json_body={"hours": 2})
            for token in tokens])
        assert [response.status_code for response in responses] == [200, 200], live_app.log()
        with schema_context(tenant.schema_name):
            open_grants = SupportGrant.objects.filter(revoked_at__isnull=True)
            assert open_grants.count() == 1  # the later grant replaced the earlier one
            assert support_grant_active() == open_grants.get()


def test_one_link_traded_twice_at_once_gives_one_session(live_app, make_tenant):
    tenant = make_tenant()
    token = token_for(tenant, tenant_admin(tenant))
    assert live_app.request("POST", tenant, "/api/client/support-access", token=token,
                            json_body={"hours": 1}).status_code == 200
    for _ in range(ROUNDS):
        with schema_context(tenant.schema_name):
            session, link = support_session_start(operator_email="ops@platform.example",
                                                  user_id=tenant_admin(tenant).pk)
        responses = parallel([
            lambda: live_app.request("POST", tenant, "/api/client/support-access/exchange", json_body={"token": link})
            for _ in range(2)])
        assert sorted(response.status_code for response in responses) == [200, 401], live_app.log()
        with schema_context(tenant.schema_name):
            assert SupportSession.objects.get(pk=session.pk).exchanged_at is not None
