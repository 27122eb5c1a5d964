"""The trial's timeline, with the clock moved (time-machine): reminders 7 and 1 days before (each once),
a read-only dashboard at the end while the public API serves through the grace period, then 402;
an operator's change of plan restores everything at once; nothing is deleted."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django_tenants.utils import schema_context
import time_machine

from apps.content.models import Post
from apps.content.tests.conftest import make_category, make_media, post_payload
from apps.core import testing
from apps.plans.trial import trial_reminders
from tenants.models import Client, OutgoingEmail


def admin_api(company) -> testing.Api:
    """Signed in now (a token issued at the frozen time)."""
    return testing.Api(company, user=testing.tenant_admin(company))


def reminders(company) -> list[OutgoingEmail]:
    return list(OutgoingEmail.objects.filter(kind="trial_ending", schema_name=company.schema_name).order_by("created_at"))


def test_the_trial_timeline(tenant):
    company = Client.objects.get(pk=tenant.pk)
    end = company.trial_ends_at
    assert company.subscription_plan == "trial" and end is not None
    category, media = make_category(tenant), make_media(tenant)

    with time_machine.travel(end - timedelta(days=8)):
        assert trial_reminders() == 0 and reminders(company) == []

    with time_machine.travel(end - timedelta(days=6, hours=23)):
        trial_reminders()
        trial_reminders()  # a repeated run sends nothing twice
        [week] = reminders(company)
        assert week.to == company.contact_email and week.subject == f"The trial of {company.name} ends in 7 days"
        assert "read-only" in week.text and f"{settings.TRIAL_PUBLIC_API_GRACE_DAYS} more days" in week.text

    with time_machine.travel(end - timedelta(hours=12)):
        trial_reminders()
        trial_reminders()
        assert [email.subject for email in reminders(company)] == [
            f"The trial of {company.name} ends in 7 days", f"The trial of {company.name} ends tomorrow"]
        api = admin_api(tenant)
        assert api.post("/api/posts", post_payload(category, media, postTitle="Before the end")).status_code == 201

    with time_machine.travel(end + timedelta(minutes=1)):
        api = admin_api(tenant)
        assert api.get("/api/posts").status_code == 200  # reads go on
        refused = api.post("/api/posts", post_payload(category, media, postTitle="After the end"))
        assert refused.status_code == 403, refused.content
        body = refused.json()
        assert body["code"] == "plan_expired" and body["plan"] == "trial" and "read-only" in body["message"]
        assert api.put("/api/client/info", {"name": "Renamed"}).json()["code"] == "plan_expired"
        usage = api.get("/api/usage").json()
        assert usage["readOnly"] is True and usage["subscriptionStatus"] == "expired"
        assert api.get("/api/client/info").json()["data"]["company"]["subscriptionStatus"] == "expired"
        # the public API serves through the grace period
        assert testing.Api(tenant).get("/api/v1/posts", HTTP_X_API_KEY=company.api_key).status_code == 200
        assert trial_reminders() == 0  # no reminder after the end

    with time_machine.travel(end + timedelta(days=settings.TRIAL_PUBLIC_API_GRACE_DAYS, minutes=1)):
        lapsed = testing.Api(tenant).get("/api/v1/posts", HTTP_X_API_KEY=company.api_key)
        assert lapsed.status_code == 402
        assert lapsed.json()["code"] == "plan_expired" and lapsed.json()["error"] == "payment_required"
        with schema_context(tenant.schema_name):
            assert Post.objects.filter(title="Before the end").exists()  # nothing deleted

        # an operator's change of plan restores everything at once
        company.subscription_plan = "starter"
        company.save(update_fields=["subscription_plan"])
        assert testing.Api(tenant).get("/api/v1/posts", HTTP_X_API_KEY=company.api_key).status_code == 200
        assert admin_api(tenant).post("/api/posts", post_payload(category, media, postTitle="Back")).status_code == 201


def test_an_extended_trial_gets_its_reminders_again(tenant):
    company = Client.objects.get(pk=tenant.pk)
    with time_machine.travel(company.trial_ends_at - timedelta(hours=6)):
        trial_reminders()
        assert len(reminders(company)) == 1
        company.trial_ends_at += timedelta(days=10)
        company.save(update_fields=["trial_ends_at"])
        trial_reminders()
        assert len(reminders(company)) == 1  # the new end is 10 days away
    with time_machine.travel(company.trial_ends_at - timedelta(days=5)):
        trial_reminders()
        assert [e.subject.rsplit(" ", 3)[-3:] for e in reminders(company)][-1] == ["in", "7", "days"]


@pytest.mark.parametrize("plan", ["starter", "business", "enterprise"])
def test_paid_plans_have_no_trial_end(make_tenant, plan):
    company = make_tenant(plan=plan)
    with time_machine.travel(company.created_at + timedelta(days=400)):
        assert trial_reminders() == 0
        assert admin_api(company).post("/api/webhooks", {"url": "https://example.com/h",
                                                         "events": ["post.published"]}).status_code == 201
