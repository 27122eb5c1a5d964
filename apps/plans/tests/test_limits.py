"""Each limit of a plan, at each write that spends it (through the dashboard API): refused with 403
`plan_limit` naming the limit, the use and the plan's value; a delete gives back; an operator's
override lifts it at once; companies are counted apart."""
from __future__ import annotations

import pytest
from django_tenants.utils import schema_context

from apps.content.tests.conftest import make_category, make_media, post_payload
from apps.core import testing
from apps.media.tests.conftest import make_image, upload
from apps.plans.company.models import CompanyCounter
from apps.plans.models import PlanCounter
from apps.plans.rules import counters_mirror, plan_allows, plan_recount
from tenants.models import Client


@pytest.fixture(autouse=True)
def media_root(tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path / "media-root"
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True  # the endpoints below name 127.0.0.1


def assert_plan_limit(response, limit: str, used: int, allowed: int, plan: str = "trial") -> dict:
    assert response.status_code == 403, response.content
    body = response.json()
    assert body["success"] is False and body["error"] == "forbidden" and body["code"] == "plan_limit"
    assert (body["limit"], body["used"], body["allowed"], body["plan"]) == (limit, used, allowed, plan)
    return body


def test_posts_limit_refuses_the_next_post_and_a_delete_frees_one(tenant, api, plans):
    plans["trial"]["posts"] = 2
    category, media = make_category(tenant), make_media(tenant)
    created = [api.post("/api/posts", post_payload(category, media, postTitle=f"Post {n}")) for n in range(2)]
    assert [r.status_code for r in created] == [201, 201]
    body = assert_plan_limit(api.post("/api/posts", post_payload(category, media, postTitle="Third")), "posts", 2, 2)
    assert body["message"].startswith("Your plan allows 2 posts.")
    with schema_context(tenant.schema_name):
        from apps.content.models import Post

        assert Post.objects.count() == 2  # nothing written by the refusal

    post_id = created[0].json()["post"]["id"]
    assert api.delete(f"/api/posts/{post_id}").status_code == 200
    assert api.post("/api/posts", post_payload(category, media, postTitle="Third")).status_code == 201


def test_staff_seats_limit_refuses_invitations_and_new_users(tenant, api, plans):
    plans["trial"]["staff_seats"] = 2  # the admin holds one
    first = api.post("/api/auth/register-user", {"username": "second", "email": "second@example.com",
                                                 "password": "password-123", "role": "editor"})
    assert first.status_code == 201, first.content
    body = assert_plan_limit(api.post("/api/auth/register-user", {
        "username": "third", "email": "third@example.com", "password": "password-123", "role": "editor"}),
        "staff_seats", 2, 2)
    assert body["message"].startswith("Your plan allows 2 staff accounts.")
    assert_plan_limit(api.post("/api/invitations", {"email": "fourth@example.com", "role": "viewer"}),
                      "staff_seats", 2, 2)
    # deleting an account frees its seat
    assert api.delete(f"/api/users/{first.json()['user']['id']}").status_code == 200
    assert api.post("/api/invitations", {"email": "fourth@example.com", "role": "viewer"}).status_code == 201


def test_an_accepted_invitation_takes_the_seat_when_accepted(tenant, api, plans):
    from apps.accounts import services
    from apps.accounts.models import Invitation

    plans["trial"]["staff_seats"] = 2
    with schema_context(tenant.schema_name):
        invitations = [services.invitation_create(actor=api.user, email=f"p{n}@example.com", role="viewer")
                       for n in range(2)]  # the seat is free when each is sent
        for n, invitation in enumerate(invitations):
            Invitation.objects.filter(pk=invitation.pk).update(token_hash=services._token_hash(f"token-{n}"))
    anon = testing.Api(tenant)
    accepted = anon.post("/api/auth/accept-invitation", {"token": "token-0", "username": "person0", "password": "password-123"})
    assert accepted.status_code == 201, accepted.content
    assert_plan_limit(anon.post("/api/auth/accept-invitation",
                                {"token": "token-1", "username": "person1", "password": "password-123"}),
                      "staff_seats", 2, 2)


def test_media_bytes_limit_counts_the_stored_bytes(tenant, api, plans):
    image = make_image()
    first = upload(api, image)
    assert first.status_code == 201, first.content
    stored = first.json()["media"]["fileSize"]
    plans["trial"]["media_bytes"] = stored + 10  # room for the first, not for a second
    body = assert_plan_limit(upload(api, image), "media_bytes", stored, stored + 10)
    assert body["message"].startswith("Your plan allows ")
    assert "of media" in body["message"]
    assert api.delete(f"/api/media/{first.json()['media']['id']}").status_code == 200
    assert upload(api, image).status_code == 201


def test_webhook_endpoints_limit(tenant, api, plans):
    plans["trial"]["webhook_endpoints"] = 1
    body = {"url": "http://127.0.0.1:9/hooks", "events": ["post.published"]}
    created = api.post("/api/webhooks", body)
    assert created.status_code == 201
    assert_plan_limit(api.post("/api/webhooks", body), "webhook_endpoints", 1, 1)
    # bad input is still the validation error, whatever the plan
    assert api.post("/api/webhooks", {"url": "", "events": ["post.published"]}).status_code == 400
    assert api.delete(f"/api/webhooks/{created.json()['endpoint']['id']}").status_code == 200
    assert api.post("/api/webhooks", body).status_code == 201


def test_an_operator_override_lifts_a_limit_at_once_for_that_company_only(make_tenant, plans):
    plans["trial"]["webhook_endpoints"] = 1
    one, two = make_tenant(), make_tenant()
    apis = {t.pk: testing.Api(t, user=testing.tenant_admin(t)) for t in (one, two)}
    body = {"url": "http://127.0.0.1:9/hooks", "events": ["post.published"]}
    for t in (one, two):
        assert apis[t.pk].post("/api/webhooks", body).status_code == 201
    Client.objects.filter(pk=one.pk).update(plan_overrides={"webhook_endpoints": 3})
    assert apis[one.pk].post("/api/webhooks", body).status_code == 201
    assert_plan_limit(apis[two.pk].post("/api/webhooks", body), "webhook_endpoints", 1, 1)  # counted apart


def test_a_larger_plan_allows_more(make_tenant, plans):
    plans["trial"]["webhook_endpoints"] = 1
    plans["business"]["webhook_endpoints"] = 2
    company = make_tenant(plan="business")
    api = testing.Api(company, user=testing.tenant_admin(company))
    body = {"url": "http://127.0.0.1:9/hooks", "events": ["post.published"]}
    assert [api.post("/api/webhooks", body).status_code for _ in range(3)] == [201, 201, 403]


def test_counting_is_not_a_count_per_write(tenant, api, plans, django_assert_max_num_queries,
                                           django_capture_on_commit_callbacks):
    """The counter is counted once; then a write spends with one UPDATE, never COUNT(*)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    category, media = make_category(tenant), make_media(tenant)
    assert api.post("/api/posts", post_payload(category, media, postTitle="One")).status_code == 201
    with CaptureQueriesContext(connection) as captured, django_capture_on_commit_callbacks(execute=True):
        assert api.post("/api/posts", post_payload(category, media, postTitle="Two")).status_code == 201
    counting = [q["sql"] for q in captured.captured_queries if "COUNT(" in q["sql"].upper() and "content_post" in q["sql"]]
    assert counting == []
    spends = [q["sql"] for q in captured.captured_queries if "plans_companycounter" in q["sql"]]
    assert len(spends) == 1 and spends[0].startswith("UPDATE plans_companycounter")  # one statement per write
    # the counter is a row of the company's schema: the write touches no public counter (on Citus it
    # commits on the company's node alone)
    assert not [q["sql"] for q in captured.captured_queries if "plans_plancounter" in q["sql"]]
    with schema_context(tenant.schema_name):
        assert CompanyCounter.objects.get(resource="posts").used == 2
    # the public copy, read by the operator's console, follows in the next batch (the usage fold)
    assert counters_mirror() == 1
    assert PlanCounter.objects.get(client=tenant, resource="posts").used == 2


def test_recount_corrects_a_counter_and_plan_allows_reads_it(tenant, plans):
    plans["trial"]["posts"] = 3
    from apps.content.tests.factories import make_post

    for _ in range(3):
        make_post(tenant)
    company = Client.objects.get(pk=tenant.pk)
    with schema_context(tenant.schema_name):
        assert plan_allows(company, "posts") is False  # first use: counted (3 of 3)
        CompanyCounter.objects.filter(resource="posts").update(used=0)  # drifted
        assert plan_allows(company, "posts") is True
        assert plan_recount(company, "posts") == 3
        assert plan_allows(company, "posts") is False
    assert PlanCounter.objects.get(client=tenant, resource="posts").used == 3  # the recount copies it


def test_an_override_of_the_rates_reaches_the_public_api_and_the_ai_quota(tenant, api, settings):
    settings.PUBLIC_API_RATE_LIMITS = {"trial": 600}
    settings.AI_DAILY_QUOTA = {"trial": 20}
    Client.objects.filter(pk=tenant.pk).update(plan_overrides={"public_api_rpm": 2, "ai_jobs_per_day": 0})
    anon = testing.Api(tenant)
    codes = [anon.get("/api/v1/posts", HTTP_X_API_KEY=tenant.api_key).status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    assert api.get("/api/client/info").json()["data"]["apiInfo"]["rateLimit"]["requests"] == 2
    refused = api.post("/api/ai/generate-blog", {"inputContent": "Plans and limits for a small team", "tone": "casual",
                                                 "targetAudience": "business", "contentType": "blog"})
    assert refused.status_code == 429 and "(0 per day on the trial plan)" in refused.json()["message"]
