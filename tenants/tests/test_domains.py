"""A company has one primary domain (django-tenants' rule, kept by tenants.models.Domain.save) and a
new domain touches no other company's rows (lifecycle/services.py: sign-ups side by side)."""
from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from tenants.models import Domain


def test_a_new_primary_domain_makes_the_old_one_secondary_and_leaves_other_companies_alone(make_tenant):
    one, two = make_tenant(), make_tenant()
    first = Domain.objects.get(tenant=one)
    Domain(domain="blog.one.example", tenant=one, is_primary=True).save()
    assert dict(Domain.objects.filter(tenant=one).values_list("domain", "is_primary")) == {
        first.domain: False, "blog.one.example": True}
    assert list(Domain.objects.filter(tenant=two).values_list("is_primary", flat=True)) == [True]
    # a secondary domain stays secondary; a company's only domain is primary whatever was asked
    Domain(domain="www.one.example", tenant=one, is_primary=False).save()
    assert Domain.objects.get(domain="www.one.example").is_primary is False
    Domain.objects.filter(tenant=two).delete()
    Domain(domain="two.example", tenant=two, is_primary=False).save()
    assert Domain.objects.get(domain="two.example").is_primary is True


def test_the_first_domain_of_a_company_is_an_insert_without_an_update(make_tenant):
    company = make_tenant()
    Domain.objects.filter(tenant=company).delete()
    with CaptureQueriesContext(connection) as queries:
        Domain(domain="fresh.example", tenant=company, is_primary=True).save()
    writes = [q["sql"].split()[0] for q in queries.captured_queries if q["sql"].split()[0] in ("UPDATE", "INSERT", "DELETE")]
    assert writes == ["INSERT"]
