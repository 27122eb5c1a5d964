"""Sign-ups at the same moment, over real HTTP (gunicorn with 2 workers x 10 threads on the test
database, released together): each one is a company of its own, with its schema, its domain and
its admin, and none of them waits on another's rows of the shared tables (docs/concepts.md). The
same on a Citus cluster: lifecycle/tests/test_citus.py."""
from __future__ import annotations

import pytest
import requests
from django.conf import settings
from django.db import connection
from django_tenants.utils import schema_context, schema_exists

from apps.accounts.models import User
from apps.core.testing import parallel
from tenants.models import AccountDirectory, Client, Domain

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

AT_ONCE = 20


@pytest.fixture
def signup_server(tmp_path, django_db_blocker):
    """The live_app server with sign-up limits wide enough for AT_ONCE sign-ups from one address."""
    from apps.core.tests.hardening.services import Gunicorn
    from conftest import child_process_env

    env = child_process_env(connection.settings_dict["NAME"], DB_CONN_MAX_AGE="0", LOG_LEVEL="WARNING",
                            SIGNUP_RATE_PER_IP="1000/hour", SIGNUP_RATE_PER_EMAIL="1000/hour",
                            SIGNUP_RATE_GLOBAL="1000/hour")
    server = Gunicorn(env, workers=2, threads=10, log=tmp_path / "gunicorn.log", timeout=120).start()
    try:
        yield server
    finally:
        server.stop()


def sign_up(base_url: str, subdomain: str) -> requests.Response:
    return requests.post(base_url + "/api/auth/register-client", headers={"Host": settings.ROOT_DOMAIN}, timeout=120,
                         json={"companyName": f"Company {subdomain}", "contactName": "Owner",
                               "contactEmail": f"{subdomain}@example.com", "subdomain": subdomain,
                               "adminUsername": "owner", "adminEmail": f"owner@{subdomain}.example.com",
                               "adminPassword": "password12345"})


def test_twenty_sign_ups_at_once_make_twenty_companies(signup_server):
    subdomains = [f"rush{n:02d}" for n in range(AT_ONCE)]
    replies = parallel([lambda s=s: sign_up(signup_server.base_url, s) for s in subdomains])
    log = signup_server.log.read_text(errors="replace")[-5000:]
    assert [r.status_code for r in replies] == [201] * AT_ONCE, ([r.text[:300] for r in replies if r.status_code != 201],
                                                                 log)
    connection.set_schema_to_public()
    companies = {c.subdomain: c for c in Client.objects.filter(subdomain__in=subdomains)}
    assert sorted(companies) == subdomains
    assert len({c.schema_name for c in companies.values()}) == AT_ONCE
    for subdomain, company in companies.items():
        domains = list(Domain.objects.filter(tenant=company).values_list("domain", "is_primary"))
        assert domains == [(f"{subdomain}.{settings.ROOT_DOMAIN}", True)]
        assert schema_exists(company.schema_name)
        assert company.migrations_digest and company.verification_sent_at is not None
        with schema_context(company.schema_name):
            assert list(User.objects.values_list("email", "role")) == [(f"owner@{subdomain}.example.com", "admin")]
        assert AccountDirectory.objects.filter(client=company).count() == 1
    # each company's admin signs in on its own host
    for subdomain in subdomains[:3]:
        login = requests.post(signup_server.base_url + "/api/auth/login", timeout=60,
                              headers={"Host": f"{subdomain}.{settings.ROOT_DOMAIN}"},
                              json={"email": f"owner@{subdomain}.example.com", "password": "password12345"})
        assert login.status_code == 200, login.text


def test_the_same_subdomain_asked_for_at_once_is_one_company_and_409s(signup_server):
    replies = parallel([lambda: sign_up(signup_server.base_url, "samename") for _ in range(6)])
    codes = sorted(r.status_code for r in replies)
    assert codes == [201] + [409] * 5, ([r.text[:300] for r in replies], signup_server.log.read_text()[-3000:])
    connection.set_schema_to_public()
    company = Client.objects.get(subdomain="samename")
    assert Domain.objects.filter(tenant=company).count() == 1
    assert Client.objects.filter(subdomain="samename").count() == 1
