"""Members-only posts through the HTTP cache tier (docs/content.md#members-only-posts): a real
varnishd running deploy/varnish/default.vcl in front of gunicorn (the fixture of
apps/public_api/tests/test_varnish.py). A reader with a member token gets the body from the app,
every time (the VCL passes the request: never looked up, never kept); the cached reply everyone
else gets never has it, before or after a member's read."""
from __future__ import annotations

import pytest
from django_tenants.utils import schema_context

from apps.content.tests.factories import make_post
from apps.core.tests.hardening.services import varnishd_bin
from apps.members import tokens
from apps.members.tests import factories
from apps.public_api.tests.test_varnish import edge  # noqa: F401 - the fixture

pytestmark = [pytest.mark.skipif(varnishd_bin() is None, reason="varnish + varnish-modules not installed (make varnish)"),
              pytest.mark.django_db(transaction=True), pytest.mark.timeout(240), pytest.mark.slow]

BODY = "<p>The secret recipe</p>"


def test_the_edge_never_serves_a_members_body_to_another_reader(edge, make_tenant):  # noqa: F811
    tenant = make_tenant()
    make_post(tenant, "Members post", slug="locked", status="published", content=BODY, visibility="members")
    member = factories.member(tenant)
    with schema_context(tenant.schema_name):
        token = tokens.session_token(member)[0]

    def content(response) -> str:
        assert response.status_code == 200, response.text
        return response.json()["data"]["post"]["content"]

    path = "/api/v1/posts/slug/locked"
    assert content(edge.get(tenant, path, tenant.api_key, **{"X-Member-Token": token})) == BODY  # first: a member
    first = edge.get(tenant, path, tenant.api_key)
    assert content(first) == "" and first.headers["X-Edge"] == "MISS"  # the member's reply was not kept
    second = edge.get(tenant, path, tenant.api_key)
    assert content(second) == "" and second.headers["X-Edge"] == "HIT"
    before = edge.app_requests()
    again = edge.get(tenant, path, tenant.api_key, **{"X-Member-Token": token})
    assert content(again) == BODY and again.headers["X-Edge"] == "MISS"  # passed to the app
    assert again.headers["Cache-Control"] == "private, no-store" and edge.app_requests() == before + 1
    assert content(edge.get(tenant, path, tenant.api_key)) == ""
