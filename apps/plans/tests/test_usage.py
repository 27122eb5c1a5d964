"""Usage per company per day against a known workload: counted in Redis as it happens, folded into
the days' rows by the beat task, purged after 13 months, and shown to the company's admins only
(GET /api/usage)."""
from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.content.tests.conftest import make_category, make_media, post_payload
from apps.core import testing
from apps.plans import metering
from apps.plans.models import UsageDay
from apps.plans.usage import usage_fold, usage_purge
from tenants.models import Client, OutgoingEmail


def values(company, day=None) -> dict:
    day = day or timezone.now().date()
    return dict(UsageDay.objects.filter(client_id=company.pk, day=day).values_list("metric", "value"))


@pytest.fixture(autouse=True)
def _private_networks(settings, tmp_path):
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    settings.MEDIA_ROOT = tmp_path / "media"


def test_a_known_workload_is_counted_per_company_and_day(make_tenant, django_capture_on_commit_callbacks):
    acme, other = make_tenant(), make_tenant()
    api = testing.Api(acme, user=testing.tenant_admin(acme))
    other_api = testing.Api(other, user=testing.tenant_admin(other))
    category, media = make_category(acme), make_media(acme)
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post("/api/webhooks", {"url": "http://127.0.0.1:9/h", "events": ["post.published"]}).status_code == 201
        for n in range(3):  # three posts, each one delivery to the endpoint
            assert api.post("/api/posts", post_payload(category, media, postTitle=f"Post {n}", postStatus="published")).status_code == 201
        assert api.post("/api/auth/register-user", {"username": "writer", "email": "writer@example.com",
                                                    "password": "password-123", "role": "author"}).status_code == 201
        with schema_context(acme.schema_name):
            for _ in range(2):
                metering.usage_count("ai_jobs")
        assert other_api.post("/api/webhooks", {"url": "http://127.0.0.1:9/h", "events": ["post.published"]}
                              ).status_code == 201
    OutgoingEmail.objects.create(message_id="<a@x>", kind="invitation", schema_name=acme.schema_name, to="a@x.example",
                                 subject="s", text="t", html="h", sent_at=timezone.now())
    OutgoingEmail.objects.create(message_id="<b@x>", kind="invitation", schema_name=acme.schema_name, to="b@x.example",
                                 subject="s", text="t", html="h")  # not sent: not counted

    usage_fold()

    found = values(acme)
    assert found["webhook_deliveries"] == 3 and found["ai_jobs"] == 2 and found["emails"] == 1
    assert found["posts"] == 3 and found["staff_seats"] == 2 and found["webhook_endpoints"] == 1
    assert values(other)["webhook_endpoints"] == 1 and "webhook_deliveries" not in values(other)

    # counts go on adding up over folds; levels are copied again
    with django_capture_on_commit_callbacks(execute=True), schema_context(acme.schema_name):
        metering.usage_count("ai_jobs")
    usage_fold()
    assert values(acme)["ai_jobs"] == 3 and values(acme)["posts"] == 3


def test_a_fold_that_failed_is_folded_by_the_next_run(tenant, django_capture_on_commit_callbacks):
    from apps.core import redis_conn

    with django_capture_on_commit_callbacks(execute=True), schema_context(tenant.schema_name):
        metering.usage_count("ai_jobs", 4)
    day = timezone.now().date()
    client = redis_conn.client()
    client.rename(metering.key(day), f"{metering.key(day)}:fold:crashed")  # a run that died after its rename
    usage_fold()
    assert values(tenant)["ai_jobs"] == 4
    assert not list(client.scan_iter(match=f"{metering.key('')}*"))
    usage_fold()
    assert values(tenant)["ai_jobs"] == 4  # folded once


def test_nothing_is_counted_when_the_work_rolls_back(tenant, django_capture_on_commit_callbacks):
    from django.db import transaction

    with django_capture_on_commit_callbacks(execute=True), schema_context(tenant.schema_name):
        with pytest.raises(RuntimeError), transaction.atomic():
            metering.usage_count("ai_jobs")
            raise RuntimeError("the job's write failed")
        metering.usage_count("webhook_deliveries")
    usage_fold()
    assert "ai_jobs" not in values(tenant) and values(tenant)["webhook_deliveries"] == 1


def test_days_older_than_13_months_are_purged(tenant, settings):
    today = timezone.now().date()
    for age in (0, 395, 399, 400, 401, 800):
        UsageDay.objects.create(client_id=tenant.pk, day=today - timedelta(days=age), metric="api_requests", value=1)
    assert usage_purge() == 2
    kept = sorted((today - day).days for day in UsageDay.objects.filter(client_id=tenant.pk).values_list("day", flat=True))
    assert kept == [0, 395, 399, 400]


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(120)
def test_public_api_requests_are_counted_without_a_write_per_request(live_app, make_tenant):
    """Over real HTTP (gunicorn, two workers): requests answered with the key count, refused ones do
    not; the Ghost-compatible routes are the company's public API too."""
    acme, other = make_tenant(), make_tenant()
    for _ in range(3):
        assert live_app.request("GET", acme, "/api/v1/posts", headers={"x-api-key": acme.api_key}).status_code == 200
    for _ in range(2):
        ghost = f"/ghost/api/content/posts/?key={acme.ghost_content_key}"
        assert live_app.request("GET", acme, ghost).status_code == 200
    for _ in range(2):
        assert live_app.request("GET", other, "/api/v1/posts", headers={"x-api-key": other.api_key}).status_code == 200
    assert live_app.request("GET", acme, "/api/v1/posts", headers={"x-api-key": "wrong"}).status_code == 401
    deadline = time.monotonic() + 20  # each worker sends its counts within USAGE_FLUSH_SECONDS
    while time.monotonic() < deadline:
        usage_fold()
        if values(acme).get("api_requests") == 5 and values(other).get("api_requests") == 2:
            break
        time.sleep(0.5)
    assert values(acme).get("api_requests") == 5 and values(other).get("api_requests") == 2


# --- GET /api/usage -----------------------------------------------------------------------------------
def test_admins_read_their_plan_limits_and_days(tenant, api, other_tenant):
    today = timezone.now().date()
    UsageDay.objects.create(client_id=tenant.pk, day=today, metric="api_requests", value=42)
    UsageDay.objects.create(client_id=tenant.pk, day=today - timedelta(days=2), metric="posts", value=7)
    UsageDay.objects.create(client_id=other_tenant.pk, day=today, metric="api_requests", value=999)
    reply = api.get("/api/usage", {"days": 7})
    assert reply.status_code == 200, reply.content
    body = reply.json()
    assert body["plan"] == "trial" and body["subscriptionStatus"] == "trialing" and body["readOnly"] is False
    assert {row["limit"]: row["allowed"] for row in body["limits"]} == {
        "staff_seats": 10, "posts": 10_000, "media_bytes": 5 * 1024 ** 3, "webhook_endpoints": 5, "members": 1_000,
        "emails_per_month": 10_000}
    assert {row["limit"]: row["used"] for row in body["limits"]}["staff_seats"] == 1
    assert len(body["days"]) == 7 and body["days"][-1]["day"] == today.isoformat()
    assert body["days"][-1]["apiRequests"] == 42  # not the other company's 999
    assert body["days"][-3]["posts"] == 7 and body["days"][0]["apiRequests"] == 0


@pytest.mark.parametrize("role", ["editor", "author", "viewer"])
def test_other_roles_are_refused(role_api, role):
    reply = role_api(role).get("/api/usage")
    assert reply.status_code == 403 and reply.json()["error"] == "forbidden"


def test_another_companys_token_is_refused(tenant, other_tenant):
    foreign = testing.Api(tenant, token=testing.token_for(other_tenant, testing.tenant_admin(other_tenant)))
    assert foreign.get("/api/usage").status_code == 401


@pytest.mark.parametrize("days", ["0", "401", "many"])
def test_bad_days_are_a_validation_error(api, days):
    reply = api.get("/api/usage", {"days": days})
    assert reply.status_code == 400 and reply.json()["error"] == "validation_error"


def test_an_operator_plan_is_shown_at_once(tenant, api):
    Client.objects.filter(pk=tenant.pk).update(subscription_plan="business", plan_overrides={"posts": 12})
    body = api.get("/api/usage").json()
    assert body["plan"] == "business" and body["subscriptionStatus"] == "active"
    assert {row["limit"]: row["allowed"] for row in body["limits"]}["posts"] == 12
    assert {row["limit"]: row["allowed"] for row in body["limits"]}["staff_seats"] == 25


def test_a_bad_days_value_is_told_in_words(api):
    body = api.get("/api/usage", {"days": "0"}).json()
    assert body["message"] == "Days must be a whole number from 1 to 400"
