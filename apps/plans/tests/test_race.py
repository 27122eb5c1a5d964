"""Two requests racing for the last seat, over real HTTP (the `live_app` server, released together):
one is created, the other is refused with 403 `plan_limit`; the company never holds more than its
plan allows."""
from __future__ import annotations

import pytest
from django_tenants.utils import schema_context

from apps.accounts.models import User
from apps.core.testing import parallel, tenant_admin, token_for
from tenants.models import Client

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]

ROUNDS = 3


def test_two_admins_adding_the_last_seat_at_once_get_one_account(live_app, make_tenant):
    tenant = make_tenant()
    Client.objects.filter(pk=tenant.pk).update(plan_overrides={"staff_seats": 2})  # the admin holds one
    token = token_for(tenant, tenant_admin(tenant))
    for round_ in range(ROUNDS):
        bodies = [{"username": f"racer{round_}{n}", "email": f"racer{round_}{n}@example.com",
                   "password": "password-123", "role": "editor"} for n in range(2)]
        responses = parallel([
            lambda body=body: live_app.request("POST", tenant, "/api/auth/register-user", token=token, json_body=body)
            for body in bodies])
        codes = sorted(response.status_code for response in responses)
        assert codes == [201, 403], (codes, live_app.log())
        refused = next(response.json() for response in responses if response.status_code == 403)
        assert refused["code"] == "plan_limit" and refused["limit"] == "staff_seats"
        assert (refused["used"], refused["allowed"]) == (2, 2)
        with schema_context(tenant.schema_name):
            assert User.objects.count() == 2
            User.objects.exclude(role="admin").delete()
        from apps.plans.rules import plan_recount

        with schema_context(tenant.schema_name):
            assert plan_recount(Client.objects.get(pk=tenant.pk), "staff_seats") == 1
