"""User management under real concurrency (the `live_app` server, requests released together):
the company always keeps an active admin, and a race ends in 2xx, 403, 404 or 409, never 500."""
from __future__ import annotations

from collections import Counter

import pytest
from django_tenants.utils import schema_context

from apps.accounts.models import User
from apps.core.testing import create_user, parallel, tenant_admin, token_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]

ROUNDS = 3


def active_admins(tenant) -> int:
    with schema_context(tenant.schema_name):
        return User.objects.filter(role="admin", status="active").count()


def two_admins(tenant):
    """The company's first admin and a second one, both active, with fresh tokens."""
    first = tenant_admin(tenant)
    with schema_context(tenant.schema_name):
        User.objects.filter(pk=first.pk).update(role="admin", status="active")
        User.objects.exclude(pk=first.pk).delete()
    second = create_user(tenant, "admin")
    return (first, token_for(tenant, tenant_admin(tenant))), (second, token_for(tenant, second))


@pytest.mark.parametrize("change", [{"role": "editor"}, {"status": "suspended"}, {"status": "inactive"}],
                         ids=["demote", "suspend", "deactivate"])
def test_two_admins_changing_each_other_at_once_leave_an_active_admin(live_app, make_tenant, change):
    tenant = make_tenant()
    for _round in range(ROUNDS):
        (first, first_token), (second, second_token) = two_admins(tenant)
        responses = parallel([
            lambda: live_app.request("PUT", tenant, f"/api/users/{second.id}", token=first_token, json_body=change),
            lambda: live_app.request("PUT", tenant, f"/api/users/{first.id}", token=second_token, json_body=change),
        ])
        codes = sorted(response.status_code for response in responses)
        # The loser is refused: it is no longer an admin (403), it would leave none (409), or it was
        # suspended first, so its token stopped working (401).
        assert codes[0] == 200 and codes[1] in (401, 403, 409), (codes, live_app.log())
        assert active_admins(tenant) == 1


def test_two_admins_deleting_each_other_at_once_leave_an_active_admin(live_app, make_tenant):
    tenant = make_tenant()
    for _round in range(ROUNDS):
        (first, first_token), (second, second_token) = two_admins(tenant)
        responses = parallel([
            lambda: live_app.request("DELETE", tenant, f"/api/users/{second.id}", token=first_token),
            lambda: live_app.request("DELETE", tenant, f"/api/users/{first.id}", token=second_token),
        ])
        codes = sorted(response.status_code for response in responses)
        # The loser was deleted: its token no longer names a user (401), or it lost the race to be
        # the last admin (409).
        assert codes[0] == 200 and codes[1] in (401, 403, 409), (codes, live_app.log())
        assert active_admins(tenant) == 1


def test_an_admin_demoted_meanwhile_cannot_use_admin_rights(live_app, make_tenant):
    """Three admins: A demotes B while B demotes C. Whatever the order, B never acts as an admin
    after losing the role: either B's change ran first (both 200), or it is refused (403)."""
    tenant = make_tenant()
    for _round in range(ROUNDS):
        (a, a_token), (b, b_token) = two_admins(tenant)
        c = create_user(tenant, "admin")
        demote_b, b_demotes_c = parallel([
            lambda: live_app.request("PUT", tenant, f"/api/users/{b.id}", token=a_token, json_body={"role": "editor"}),
            lambda: live_app.request("PUT", tenant, f"/api/users/{c.id}", token=b_token, json_body={"role": "editor"}),
        ])
        assert demote_b.status_code == 200, live_app.log()
        assert b_demotes_c.status_code in (200, 403), (b_demotes_c.status_code, live_app.log())
        with schema_context(tenant.schema_name):
            c_role = User.objects.get(pk=c.pk).role
        assert c_role == ("editor" if b_demotes_c.status_code == 200 else "admin")
        assert active_admins(tenant) >= 1


def test_simultaneous_deletes_of_one_user_one_wins_the_others_get_404(live_app, make_tenant):
    tenant = make_tenant()
    admins = [tenant_admin(tenant), *(create_user(tenant, "admin") for _ in range(3))]
    tokens = [token_for(tenant, admin) for admin in admins]
    for role in ("viewer", "admin"):
        target = create_user(tenant, role)
        responses = parallel([
            (lambda token=token: live_app.request("DELETE", tenant, f"/api/users/{target.id}", token=token))
            for token in tokens
        ])
        codes = Counter(response.status_code for response in responses)
        assert codes == Counter({200: 1, 404: 3}), (role, codes, live_app.log())


def test_updates_racing_a_delete_of_the_user_get_404(live_app, make_tenant):
    tenant = make_tenant()
    admins = [tenant_admin(tenant), *(create_user(tenant, "admin") for _ in range(3))]
    tokens = [token_for(tenant, admin) for admin in admins]
    target = create_user(tenant, "editor")
    responses = parallel([
        lambda: live_app.request("DELETE", tenant, f"/api/users/{target.id}", token=tokens[0]),
        *[(lambda n=n: live_app.request("PUT", tenant, f"/api/users/{target.id}", token=tokens[n],
                                        json_body={"username": f"renamed-{n}"})) for n in (1, 2, 3)],
    ])
    assert responses[0].status_code == 200
    assert {response.status_code for response in responses[1:]} <= {200, 404}, live_app.log()
