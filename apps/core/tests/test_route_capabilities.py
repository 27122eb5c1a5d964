"""What a route needs is declared on it (apps.core.permissions.requires) and checked from there,
before its handler runs, with the declared message."""
from __future__ import annotations

import pytest

from apps.core import testing
from apps.core.permissions import CAPABILITIES, PUBLIC, SIGNED_IN, declared_capability, requires


def test_an_unknown_capability_is_refused_when_the_route_is_declared():
    with pytest.raises(KeyError):
        requires("posts.publishh")


@pytest.mark.parametrize("declaration", [PUBLIC, SIGNED_IN, *CAPABILITIES])
def test_the_declaration_is_readable_from_the_handler(declaration):
    def handler(request):
        return "ran"

    assert declared_capability(requires(declaration)(handler)) == declaration
    assert declared_capability(handler) in (None, declaration)


def test_a_refused_role_never_reaches_the_handler():
    calls = []

    @requires("users.manage", "Only administrators can do this")
    def handler(request, value: int):
        calls.append(value)
        return value

    class Request:
        def __init__(self, role):
            self.auth = type("User", (), {"role": role})()

    with pytest.raises(Exception) as refused:
        handler(Request("editor"), 1)
    assert refused.value.status_code == 403 and refused.value.message == "Only administrators can do this"
    assert calls == []
    assert handler(Request("admin"), 2) == 2 and calls == [2]


@pytest.mark.parametrize(("role", "status"), [("admin", 200), ("editor", 403), ("author", 403), ("viewer", 403)])
def test_the_declared_message_is_the_reply(tenant, role, status):
    user = testing.tenant_admin(tenant) if role == "admin" else testing.create_user(tenant, role)
    response = testing.Api(tenant, user=user).get("/api/audit")
    assert response.status_code == status
    if status == 403:
        assert response.json() == {"success": False, "message": "Only administrators can see the activity log",
                                   "error": "forbidden"}
