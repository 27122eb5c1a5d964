"""The capability table is served to the dashboard by GET /api/auth/me (which hides what a role
cannot do), and the dashboard's component tests use a copy of it: both match the server's."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from apps.core import testing
from apps.core.permissions import CAPABILITIES, Role, capabilities_of

DASHBOARD_TABLE = Path(__file__).resolve().parents[3] / "dashboard" / "src" / "test" / "roles.ts"


@pytest.mark.parametrize("role", [r.value for r in Role])
def test_me_lists_the_roles_capabilities_in_table_order(tenant, role):
    user = testing.tenant_admin(tenant) if role == "admin" else testing.create_user(tenant, role)
    reply = testing.Api(tenant, user=user).get("/api/auth/me").json()
    assert reply["user"]["role"] == role
    assert reply["capabilities"] == [name for name, roles in CAPABILITIES.items() if role in roles]
    assert reply["capabilities"] == capabilities_of(user)


def test_the_dashboards_test_copy_matches_the_server_table():
    text = DASHBOARD_TABLE.read_text()
    sets = {name: set(re.findall(r"'(\w+)'", body))
            for name, body in re.findall(r"const (\w+): Role\[\] = \[([^\]]*)\]", text)}
    rows = re.findall(r"\['([\w.]+)', (\w+)\]", text)
    assert [name for name, _ in rows] == list(CAPABILITIES)
    assert {name: sets[group] for name, group in rows} == {name: set(roles) for name, roles in CAPABILITIES.items()}
