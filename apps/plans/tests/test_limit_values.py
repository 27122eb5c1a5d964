"""A limit's value out of range (an override stored before the console checked it, or written to
the row by hand) never turns a company's writes or reads into a 500: a number above the maximum
reads as no limit (a rate as the maximum), anything that is not a whole number from 0 is ignored
(the plan's value holds)."""
from __future__ import annotations

import pytest
from django_tenants.utils import schema_context

from apps.content.tests.conftest import make_category, make_media, post_payload
from apps.core import testing
from apps.plans import rules
from tenants.models import Client

HUGE = 10 ** 40  # does not fit the counters' 64 bits


def test_a_huge_stored_override_of_posts_still_lets_the_company_create_posts(tenant, api):
    Client.objects.filter(pk=tenant.pk).update(plan_overrides={"posts": HUGE})
    category, media = make_category(tenant), make_media(tenant)
    created = api.post("/api/posts", post_payload(category, media, postTitle="Still writable"))
    assert created.status_code == 201, created.content
    usage = api.get("/api/usage")
    assert usage.status_code == 200
    assert {row["limit"]: row["allowed"] for row in usage.json()["limits"]}["posts"] is None  # no limit


def test_huge_stored_rates_still_serve_the_public_api_and_the_usage_page(tenant, api):
    Client.objects.filter(pk=tenant.pk).update(plan_overrides={"public_api_rpm": HUGE, "ai_jobs_per_day": HUGE,
                                                               "media_bytes": HUGE, "staff_seats": -3})
    assert testing.Api(tenant).get("/api/v1/posts", HTTP_X_API_KEY=tenant.api_key).status_code == 200
    usage = api.get("/api/usage")
    assert usage.status_code == 200, usage.content
    body = usage.json()
    assert body["publicApiRequestsPerMinute"] == rules.LIMIT_MAX and body["aiJobsPerDay"] == rules.LIMIT_MAX
    allowed = {row["limit"]: row["allowed"] for row in body["limits"]}
    assert allowed["media_bytes"] is None
    assert allowed["staff_seats"] == rules.plan_values("trial")["staff_seats"]  # a negative one is ignored


@pytest.mark.parametrize("stored", [HUGE, -1, "lots", 2.5, True])
def test_an_out_of_range_override_never_breaks_spending(tenant, stored, plans):
    company = Client.objects.get(pk=tenant.pk)
    company.plan_overrides = {"webhook_endpoints": stored}
    with schema_context(tenant.schema_name):
        rules.plan_spend("webhook_endpoints", company=company)
        assert rules.plan_allows(company, "webhook_endpoints") is True


def test_an_unlimited_rate_reads_as_the_maximum(tenant, api):
    Client.objects.filter(pk=tenant.pk).update(plan_overrides={"public_api_rpm": None})
    body = api.get("/api/usage").json()
    assert body["publicApiRequestsPerMinute"] == rules.LIMIT_MAX
