"""The plan's feature switches (ai_writing, webhooks): a request for a feature that is off is refused
with 403 `plan_feature` naming it; existing webhook endpoints keep their data but nothing more is
sent; an operator's switch for one company decides over the plan; the dashboard reads the switches
from the company's settings; companies are apart."""
from __future__ import annotations

import pytest
from django_tenants.utils import schema_context

from apps.core import testing
from apps.plans import rules
from tenants.models import Client

HOOK = {"url": "http://127.0.0.1:9/hooks", "events": ["post.published", "tag.created"]}
BLOG = {"inputContent": "Remote work productivity tips for small teams", "tone": "casual",
        "targetAudience": "business", "contentType": "blog"}


@pytest.fixture(autouse=True)
def _settings(settings):
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True  # the endpoints below name 127.0.0.1
    settings.AI_PROVIDER = "offline"
    settings.AI_DAILY_QUOTA = {"trial": 1000}


def switch(company: Client, **features: bool) -> None:
    """An operator's switch for this company (Client.plan_overrides["features"])."""
    overrides = dict(Client.objects.get(pk=company.pk).plan_overrides or {})
    overrides["features"] = {**overrides.get("features", {}), **features}
    Client.objects.filter(pk=company.pk).update(plan_overrides=overrides)


def assert_plan_feature(response, feature: str, plan: str = "trial") -> dict:
    assert response.status_code == 403, response.content
    body = response.json()
    assert body["success"] is False and body["error"] == "forbidden" and body["code"] == "plan_feature"
    assert (body["feature"], body["plan"]) == (feature, plan)
    return body


def test_ai_writing_off_in_the_plan_refuses_generation_and_writes_no_job(tenant, api, plans):
    plans["trial"]["features"]["ai_writing"] = False
    body = assert_plan_feature(api.post("/api/ai/generate-blog?async=true", BLOG), "ai_writing")
    assert body["message"].startswith("Your plan does not include AI writing.")
    assert_plan_feature(api.post("/api/ai/generate-seo", {"title": "A title"}), "ai_writing")
    with schema_context(tenant.schema_name):
        from apps.ai.models import GenerationJob

        assert not GenerationJob.objects.exists()
    assert api.get("/api/client/info").json()["data"]["company"]["features"] == {"aiWriting": False, "webhooks": True}

    # an operator switches it on for this company only: allowed at once
    switch(tenant, ai_writing=True)
    assert api.post("/api/ai/generate-blog?async=true", BLOG).status_code == 202
    assert api.get("/api/client/info").json()["data"]["company"]["features"]["aiWriting"] is True


def test_an_operator_switch_off_overrides_the_plan_for_one_company_only(make_tenant):
    first, second = make_tenant("feat-one"), make_tenant("feat-two")
    switch(first, ai_writing=False)
    one = testing.Api(first, user=testing.tenant_admin(first))
    two = testing.Api(second, user=testing.tenant_admin(second))
    assert_plan_feature(one.post("/api/ai/generate-blog?async=true", BLOG), "ai_writing")
    assert two.post("/api/ai/generate-blog?async=true", BLOG).status_code == 202
    assert rules.features_of(Client.objects.get(pk=first.pk)) == {"ai_writing": False, "webhooks": True}
    assert rules.features_of(Client.objects.get(pk=second.pk)) == {"ai_writing": True, "webhooks": True}


def test_webhooks_off_keeps_endpoints_and_deliveries_but_refuses_changes_and_sends_nothing(tenant, api, plans):
    created = api.post("/api/webhooks", HOOK)
    assert created.status_code == 201, created.content
    endpoint = created.json()["endpoint"]["id"]
    assert api.post("/api/tags/add", {"name": "Before", "slug": "before"}).status_code == 201  # one delivery written
    with schema_context(tenant.schema_name):
        from apps.webhooks.models import WebhookDelivery

        [pending] = WebhookDelivery.objects.all()
        assert pending.status == WebhookDelivery.Status.PENDING

    plans["trial"]["features"]["webhooks"] = False
    body = assert_plan_feature(api.post("/api/webhooks", HOOK), "webhooks")
    assert body["message"].startswith("Your plan does not include Webhooks.")
    assert_plan_feature(api.put(f"/api/webhooks/{endpoint}", {"active": False}), "webhooks")
    assert_plan_feature(api.post(f"/api/webhooks/{endpoint}/test"), "webhooks")
    assert_plan_feature(api.post(f"/api/webhooks/{endpoint}/secret/rotate"), "webhooks")
    assert_plan_feature(api.post(f"/api/webhooks/{endpoint}/deliveries/{pending.pk}/redeliver"), "webhooks")

    # the endpoint and its deliveries are kept and readable
    assert [e["id"] for e in api.get("/api/webhooks").json()["endpoints"]] == [endpoint]
    assert api.get(f"/api/webhooks/{endpoint}/deliveries").json()["deliveries"][0]["id"] == str(pending.pk)
    # a new event writes no delivery; the pending one is not sent when its turn comes
    assert api.post("/api/tags/add", {"name": "After", "slug": "after"}).status_code == 201
    with schema_context(tenant.schema_name):
        from apps.webhooks import services

        assert WebhookDelivery.objects.count() == 1
        assert services.webhook_delivery_attempt(delivery_id=str(pending.pk)) is None
        pending.refresh_from_db()
        assert pending.status == WebhookDelivery.Status.FAILED and pending.attempt == 0
        assert pending.error == services.FEATURE_OFF

    # the plan includes webhooks again: the stopped delivery can be sent again, new events go out
    plans["trial"]["features"]["webhooks"] = True
    assert api.post(f"/api/webhooks/{endpoint}/deliveries/{pending.pk}/redeliver").status_code == 202
    assert api.post("/api/tags/add", {"name": "Again", "slug": "again"}).status_code == 201
    with schema_context(tenant.schema_name):
        assert WebhookDelivery.objects.count() == 3
    # deleting an endpoint stays allowed while the feature is off (the company's own data)
    plans["trial"]["features"]["webhooks"] = False
    assert api.delete(f"/api/webhooks/{endpoint}").status_code == 200


def test_the_switches_are_read_by_every_role_and_decided_per_company(make_tenant):
    first, second = make_tenant("feat-three"), make_tenant("feat-four")
    switch(first, webhooks=False)
    viewer = testing.Api(first, user=testing.create_user(first, "viewer"))
    assert viewer.get("/api/client/info").json()["data"]["company"]["features"] == {"aiWriting": True, "webhooks": False}
    # the other company's token on this company's host: refused, nothing read
    other = testing.Api(first, token=testing.token_for(second, testing.tenant_admin(second)))
    assert other.get("/api/client/info").status_code == 401
    assert testing.Api(second, user=testing.tenant_admin(second)).get("/api/client/info") \
        .json()["data"]["company"]["features"] == {"aiWriting": True, "webhooks": True}


def test_an_unknown_feature_name_is_a_programming_error():
    with pytest.raises(KeyError):
        rules.feature_enabled(None, "teleport")
