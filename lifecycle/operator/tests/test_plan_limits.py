"""The console's plan form keeps every limit in its range (apps.plans.rules.limit_value_check): a
number that does not fit, a negative one, or text, is refused with the form's error and nothing is
stored; the company keeps writing."""
from __future__ import annotations

from apps.content.tests.conftest import make_category, make_media, post_payload
from apps.core import testing
from apps.plans import rules
from lifecycle.operator.models import OperatorAction
from lifecycle.operator.views import LIMIT_NAMES
from lifecycle.operator.tests.test_console import signed_in
from tenants.models import Client

FORTY_DIGITS = "1" * 40


def test_the_form_refuses_a_limit_out_of_range(operator, tenant):
    web = signed_in(operator)
    Client.objects.filter(pk=tenant.pk).update(plan_overrides={"posts": 50})
    for name in rules.LIMITS:
        for raw in (FORTY_DIGITS, str(2 ** 63), "-5"):
            reply = web.post(f"/operator/companies/{tenant.subdomain}/plan",
                             {"plan": "starter", f"limit_{name}": raw})
            assert reply.status_code == 400, (name, raw)
            assert f"A limit of {name} is a whole number from".encode() in reply.content, (name, raw)
    fresh = Client.objects.get(pk=tenant.pk)
    assert fresh.plan_overrides == {"posts": 50} and fresh.subscription_plan == tenant.subscription_plan
    assert not OperatorAction.objects.filter(action="plan_changed").exists()


def test_the_largest_values_are_taken_and_the_company_still_writes(operator, tenant):
    web = signed_in(operator)
    base = f"/operator/companies/{tenant.subdomain}"
    reply = web.post(f"{base}/plan", {"plan": "trial", "limit_posts": str(rules.LIMIT_MAX),
                                      "limit_media_bytes": str(rules.LIMIT_MAX_BYTES), "limit_public_api_rpm": "0"})
    assert reply.status_code == 400 and b"A limit of public_api_rpm is a whole number from 1" in reply.content
    reply = web.post(f"{base}/plan", {"plan": "trial", "limit_posts": str(rules.LIMIT_MAX),
                                      "limit_media_bytes": str(rules.LIMIT_MAX_BYTES)})
    assert reply.status_code == 302
    assert Client.objects.get(pk=tenant.pk).plan_overrides == {"posts": rules.LIMIT_MAX,
                                                               "media_bytes": rules.LIMIT_MAX_BYTES}
    api = testing.Api(tenant, user=testing.tenant_admin(tenant))
    category, media = make_category(tenant), make_media(tenant)
    assert api.post("/api/posts", post_payload(category, media, postTitle="Fits")).status_code == 201
    assert web.get(base).status_code == 200


def test_every_limit_of_the_plans_has_its_name_in_the_console():
    """A limit added to the plans (members, newsletter emails) is shown on the company's page."""
    assert set(LIMIT_NAMES) == set(rules.LIMITS)
