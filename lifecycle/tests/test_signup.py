import os
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, connections
from django_tenants.utils import schema_context, schema_exists

from apps.accounts.models import User
from apps.core.testing import Api
from lifecycle import services
from tenants.models import Client, Domain, ProvisioningTemplate

VALID = {
    "companyName": "Acme Inc",
    "contactName": "Jo Smith",
    "contactEmail": "jo@acme.com",
    "subdomain": "acme-co",
    "adminUsername": "joe",
    "adminEmail": "jo@acme.com",
    "adminPassword": "password1",
}


def register(root_api, **overrides):
    return root_api.post("/api/auth/register-client", {**VALID, **overrides})


def test_sign_up_creates_company_schema_domain_and_admin_usable_at_once(root_api, db):
    response = register(root_api)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["success"] is True
    assert body["data"] == {"subdomain": "acme-co", "loginUrl": "http://acme-co.testserver.local/login"}

    client = Client.objects.get(subdomain="acme-co")
    assert client.name == "Acme Inc" and client.contact_name == "Jo Smith" and client.contact_email == "jo@acme.com"
    assert client.status == "trial" and client.subscription_plan == "trial" and client.trial_ends_at
    assert client.api_key.startswith("cms_live_") and client.preview_key.startswith("cms_preview_")
    assert Domain.objects.get(tenant=client).domain == "acme-co.testserver.local"
    assert schema_exists(client.schema_name)

    login = Api(client).post("/api/auth/login", {"email": "jo@acme.com", "password": "password1"})
    assert login.status_code == 200, login.json()
    assert login.json()["user"]["username"] == "joe"
    assert login.json()["user"]["role"] == "admin"


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("companyName", "A", "Company name must be at least 2 characters"),
        ("companyName", "  ", "Company name must be at least 2 characters"),
        ("contactName", "J", "Contact name is required"),
        ("contactName", "", "Contact name is required"),
        ("contactEmail", "not-an-email", "Please enter a valid email address"),
        ("subdomain", "ab", "Subdomain must be at least 3 characters"),
        ("subdomain", "Acme", "Subdomain can only contain lowercase letters, numbers, and hyphens"),
        ("subdomain", "acme_co", "Subdomain can only contain lowercase letters, numbers, and hyphens"),
        ("subdomain", "acme.co", "Subdomain can only contain lowercase letters, numbers, and hyphens"),
        ("subdomain", "-acme", "Subdomain cannot start or end with a hyphen"),
        ("subdomain", "a" * 51, "Subdomain must be at most 50 characters"),
        ("adminUsername", "jo", "Username must be at least 3 characters"),
        ("adminEmail", "jo@", "Please enter a valid email address"),
        ("adminPassword", "short", "Password must be at least 8 characters"),
    ],
)
def test_sign_up_validation_messages(root_api, db, field, value, message):
    response = register(root_api, **{field: value})
    assert response.status_code == 400
    body = response.json()
    assert body == {"success": False, "message": message, "error": "validation_error",
                    "errors": [{"field": field, "message": message}]}
    assert not Client.objects.filter(subdomain=VALID["subdomain"]).exists()


def test_sign_up_with_every_field_missing_names_each_rule(root_api, db):
    response = root_api.post("/api/auth/register-client", {})
    assert response.status_code == 400
    fields = {error["field"]: error["message"] for error in response.json()["errors"]}
    assert fields == {
        "companyName": "Company name must be at least 2 characters",
        "contactName": "Contact name is required",
        "contactEmail": "Please enter a valid email address",
        "subdomain": "Subdomain must be at least 3 characters",
        "adminUsername": "Username must be at least 3 characters",
        "adminEmail": "Please enter a valid email address",
        "adminPassword": "Password must be at least 8 characters",
    }


def test_sign_up_wrong_types_and_bad_json_get_400_not_500(root_api, db):
    response = register(root_api, subdomain=123, adminPassword=["x"])
    assert response.status_code == 400
    assert {e["field"] for e in response.json()["errors"]} == {"subdomain", "adminPassword"}
    bad = root_api.post("/api/auth/register-client", "{not json", content_type="application/json")
    assert bad.status_code == 400
    assert bad.json()["success"] is False


@pytest.mark.parametrize("subdomain", ["www", "api", "admin", "app", "static", "media", "public", "pgadmin"])
def test_reserved_subdomains_get_409(root_api, db, subdomain):
    response = register(root_api, subdomain=subdomain)
    assert response.status_code == 409
    assert response.json()["message"] == "This subdomain is reserved. Please choose another one."
    assert response.json()["error"] == "conflict"


def test_taken_subdomain_gets_409_and_keeps_the_first_company(root_api, db):
    assert register(root_api).status_code == 201
    again = register(root_api, companyName="Other Co", adminEmail="x@other.com")
    assert again.status_code == 409
    assert again.json()["message"] == "This subdomain is already taken. Please choose another one."
    assert Client.objects.get(subdomain="acme-co").name == "Acme Inc"


def test_failure_half_way_leaves_no_schema_domain_or_user(root_api, db, monkeypatch):
    def explode(**kwargs):
        User.objects.create(username="ghost", email="ghost@example.com", password="x")
        raise RuntimeError("disk full")

    monkeypatch.setattr(services, "user_create", explode)
    with pytest.raises(RuntimeError):
        services.client_register(
            company_name="Acme", contact_name="Jo", contact_email="jo@acme.com", subdomain="half-way",
            admin_username="joe", admin_email="jo@acme.com", admin_password="password1",
        )
    connection.set_schema_to_public()
    assert not Client.objects.filter(subdomain="half-way").exists()
    assert not Domain.objects.filter(domain__startswith="half-way.").exists()
    assert not schema_exists(services.schema_name_for("half-way"))


def test_failure_half_way_through_the_api_answers_500_without_a_trace(root_api, db, monkeypatch):
    monkeypatch.setattr(services, "user_create", lambda **kw: 1 / 0)
    response = register(root_api)
    assert response.status_code == 500
    assert response.json() == {"success": False, "message": "Internal server error", "error": "server_error"}
    assert "ZeroDivision" not in response.content.decode()
    assert not Client.objects.filter(subdomain="acme-co").exists()


def test_same_email_in_two_companies_is_two_users_and_data_stays_apart(make_tenant):
    first = make_tenant(admin_email="same@example.com")
    second = make_tenant(admin_email="same@example.com")
    with schema_context(first.schema_name):
        first_user = User.objects.get(email="same@example.com")
        User.objects.create(username="only-in-first", email="only@first.com", password="x")
    with schema_context(second.schema_name):
        second_user = User.objects.get(email="same@example.com")
        assert not User.objects.filter(username="only-in-first").exists()
    assert first_user.pk != second_user.pk

    # Each password works only on its own company.
    api_first, api_second = Api(first), Api(second)
    assert api_first.post("/api/auth/login", {"email": "same@example.com", "password": "password123"}).status_code == 200
    from apps.accounts.services import user_update

    with schema_context(second.schema_name):
        user_update(actor=second_user, user=second_user, password="another-password",
                    current_password="password123")
    assert api_first.post("/api/auth/login", {"email": "same@example.com", "password": "another-password"}).status_code == 401
    assert api_second.post("/api/auth/login", {"email": "same@example.com", "password": "another-password"}).status_code == 200


def test_a_stale_template_is_rebuilt_before_provisioning(make_tenant):
    ProvisioningTemplate.objects.update(migrations_digest="stale")
    tenant = make_tenant()
    template = ProvisioningTemplate.objects.get()
    from lifecycle.provisioning import applied_migrations_digest, expected_migrations_digest

    assert template.migrations_digest == expected_migrations_digest()
    assert applied_migrations_digest(tenant.schema_name) == expected_migrations_digest()


def test_sign_up_is_answered_on_the_root_domain_only(tenant, db):
    response = Api(tenant).post("/api/auth/register-client", VALID)
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


# --- throttling -----------------------------------------------------------------------------------
def _attempt(root_api, n: int, *, ip: str = "203.0.113.7", email: str | None = None):
    return root_api.post("/api/auth/register-client", {
        **VALID, "subdomain": f"burst-{n}-{os.getpid()}", "contactEmail": email or f"owner{n}@example.com",
        "adminEmail": f"owner{n}@example.com"}, REMOTE_ADDR=ip)


def test_sign_ups_from_one_address_are_throttled_with_retry_after(root_api, db):
    statuses = [_attempt(root_api, n).status_code for n in range(7)]
    assert statuses == [201] * 5 + [429] * 2
    refused = _attempt(root_api, 99)
    body = refused.json()
    assert body["error"] == "rate_limited" and body["success"] is False
    assert body["message"].startswith("Too many sign-ups. Please try again in ")
    assert 0 < int(refused["Retry-After"]) <= 3600
    assert Client.objects.filter(subdomain__startswith="burst-").count() == 5
    assert _attempt(root_api, 100, ip="198.51.100.9").status_code == 201  # another address is not held back


def test_sign_ups_with_one_contact_email_are_throttled_from_any_address(root_api, db):
    statuses = [_attempt(root_api, n, ip=f"192.0.2.{n}", email="Same@Example.com ").status_code for n in range(4)]
    assert statuses == [201, 201, 201, 429]


def test_the_product_wide_ceiling_holds_across_addresses_and_emails(root_api, db, settings):
    settings.SIGNUP_RATE_GLOBAL = "3/minute"
    statuses = [_attempt(root_api, n, ip=f"192.0.2.{n}").status_code for n in range(4)]
    assert statuses == [201, 201, 201, 429]


def test_parallel_sign_ups_from_one_address_never_pass_the_limit(transactional_db):
    barrier = threading.Barrier(10)

    def attempt(n):
        client = Api(None)
        barrier.wait()
        try:
            return _attempt(client, n, ip="203.0.113.50").status_code
        finally:
            connections.close_all()

    try:
        with ThreadPoolExecutor(10) as pool:
            statuses = list(pool.map(attempt, range(10)))
        assert sorted(statuses) == [201] * 5 + [429] * 5, statuses
    finally:
        connection.set_schema_to_public()
        for client in Client.objects.filter(subdomain__startswith="burst-"):
            client.delete(force_drop=True)
