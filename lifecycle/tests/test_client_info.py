"""GET/PUT /api/client/info and POST /api/client/api-key/rotate (company settings)."""
from __future__ import annotations

import pytest

from apps.content.tests.factories import make_category, make_post, make_tag
from apps.core.testing import Api, tenant_admin
from tenants.models import Client


def test_info_describes_the_company_and_its_public_api(api, tenant):
    make_category(tenant, "News", slug="news")
    make_tag(tenant, "Python", slug="python")
    make_post(tenant, "Hello", slug="hello", status="published")
    make_post(tenant, "Draft", slug="secret-draft", status="draft")
    response = api.get("/api/client/info")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["success"] is True
    company = body["data"]["company"]
    assert company["uuid"] == str(tenant.uuid)
    assert company["name"] == tenant.name and company["contactName"] == "Contact Person"
    assert company["contactEmail"] == tenant.contact_email and company["subdomain"] == tenant.subdomain
    assert company["status"] == "trial" and company["subscriptionPlan"] == "trial"
    assert company["subscriptionStatus"] == "trialing" and company["trialEndsAt"] and company["createdAt"]

    info = body["data"]["apiInfo"]
    base = f"http://{tenant.subdomain}.testserver.local/api/v1"
    assert info["baseUrl"] == base
    auth = info["authentication"]
    assert auth["method"] == "API Key" and auth["header"] == "x-api-key" and auth["apiKey"] == tenant.api_key
    assert auth["note"] and auth["previewKey"] == tenant.preview_key
    assert info["endpoints"]["posts"] == {"list": "/posts", "getBySlug": "/posts/slug/{slug}",
                                          "getByCategory": "/posts/category/{slug}", "getByTag": "/posts/tag/{slug}"}
    assert info["exampleRequests"] == {
        "getAllPosts": {"url": f"{base}/posts?page=1&limit=10"},
        "getPostsByCategory": {"url": f"{base}/posts/category/news"},
        "getPostsByTag": {"url": f"{base}/posts/tag/python"},
        "getPostBySlug": {"url": f"{base}/posts/slug/hello"},  # a published post, never a draft
    }
    assert info["rateLimit"] == {"requests": 600, "windowSeconds": 60}


def test_example_urls_work_with_the_key_shown(api, tenant):
    make_category(tenant, "News", slug="news")
    make_tag(tenant, "Python", slug="python")
    make_post(tenant, "Hello", slug="hello", status="published")
    info = api.get("/api/client/info").json()["data"]["apiInfo"]
    site = Api(tenant, headers={"x-api-key": info["authentication"]["apiKey"]})
    for example in info["exampleRequests"].values():
        path = example["url"].split("testserver.local", 1)[1]
        assert site.get(path).status_code == 200, path


def test_company_without_content_gets_placeholder_examples(api):
    examples = api.get("/api/client/info").json()["data"]["apiInfo"]["exampleRequests"]
    assert examples["getPostBySlug"]["url"].endswith("/posts/slug/your-post-slug")


def test_non_admins_read_the_guide_without_the_preview_key(role_api, tenant):
    body = role_api("viewer").get("/api/client/info").json()
    assert body["data"]["apiInfo"]["authentication"]["apiKey"] == tenant.api_key
    assert "previewKey" not in body["data"]["apiInfo"]["authentication"]


def test_admin_updates_company_details(api, tenant):
    response = api.put("/api/client/info", {"name": "Acme Renamed", "contactName": "Jane Roe",
                                            "contactEmail": "Jane@Acme.example"})
    assert response.status_code == 200, response.json()
    assert response.json()["message"] == "Client information updated successfully"
    assert response.json()["data"]["company"]["name"] == "Acme Renamed"
    tenant.refresh_from_db()
    assert (tenant.name, tenant.contact_name, tenant.contact_email) == ("Acme Renamed", "Jane Roe",
                                                                       "jane@acme.example")
    assert api.get("/api/client/info").json()["data"]["company"]["contactName"] == "Jane Roe"


@pytest.mark.parametrize(("payload", "message"), [
    ({"name": "A", "contactName": "Jane Roe", "contactEmail": "jane@acme.example"},
     "Company name must be at least 2 characters"),
    ({"contactName": "Jane Roe", "contactEmail": "jane@acme.example"}, "Company name must be at least 2 characters"),
    ({"name": "Acme", "contactName": " ", "contactEmail": "jane@acme.example"}, "Contact name is required"),
    ({"name": "Acme", "contactName": "Jane Roe", "contactEmail": "not-an-email"},
     "Please enter a valid email address"),
    ({"name": "Acme", "contactName": "Jane Roe"}, "Please enter a valid email address"),
    ({"name": "x" * 201, "contactName": "Jane Roe", "contactEmail": "jane@acme.example"},
     "Company name must be at most 200 characters"),
])
def test_update_validation_messages_and_nothing_changes(api, tenant, payload, message):
    before = Client.objects.values("name", "contact_name", "contact_email").get(pk=tenant.pk)
    response = api.put("/api/client/info", payload)
    assert response.status_code == 400
    assert response.json()["message"] == message and response.json()["error"] == "validation_error"
    assert Client.objects.values("name", "contact_name", "contact_email").get(pk=tenant.pk) == before


@pytest.mark.parametrize("role", ["editor", "author", "viewer"])
def test_only_admins_update_or_rotate(role_api, tenant, role):
    client = role_api(role)
    update = client.put("/api/client/info", {"name": "Hijack", "contactName": "Jane Roe",
                                             "contactEmail": "jane@acme.example"})
    assert update.status_code == 403
    assert update.json()["message"] == "Only administrators can update company settings"
    rotate = client.post("/api/client/api-key/rotate")
    assert rotate.status_code == 403
    assert Client.objects.get(pk=tenant.pk).name == tenant.name
    assert Client.objects.get(pk=tenant.pk).api_key == tenant.api_key


def test_rotation_invalidates_the_old_key_at_once(api, tenant, django_capture_on_commit_callbacks):
    make_post(tenant, "Hello", slug="hello", status="published")
    old = Api(tenant, headers={"x-api-key": tenant.api_key})
    assert old.get("/api/v1/posts").status_code == 200
    assert old.get("/api/v1/posts")["X-Cache"] == "HIT"
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post("/api/client/api-key/rotate")
    assert response.status_code == 200
    new_key = response.json()["data"]["apiKey"]
    assert new_key != tenant.api_key and new_key == Client.objects.get(pk=tenant.pk).api_key
    assert old.get("/api/v1/posts").status_code == 401
    assert Api(tenant, headers={"x-api-key": new_key}).get("/api/v1/posts").status_code == 200
    assert api.get("/api/client/info").json()["data"]["apiInfo"]["authentication"]["apiKey"] == new_key
    # The preview key is untouched.
    assert Api(tenant, headers={"x-api-key": tenant.preview_key}).get("/api/v1/posts").status_code == 200


def test_each_company_sees_and_changes_only_itself(api, tenant, other_tenant):
    other_admin = Api(other_tenant, user=tenant_admin(other_tenant))
    info = other_admin.get("/api/client/info").json()["data"]
    assert info["company"]["subdomain"] == other_tenant.subdomain
    assert info["apiInfo"]["authentication"]["apiKey"] == other_tenant.api_key
    assert tenant.api_key not in str(info)
    other_admin.put("/api/client/info", {"name": "Other Renamed", "contactName": "Jane Roe",
                                         "contactEmail": "jane@other.example"})
    other_admin.post("/api/client/api-key/rotate")
    refreshed = Client.objects.get(pk=tenant.pk)
    assert (refreshed.name, refreshed.api_key) == (tenant.name, tenant.api_key)
    # A token of one company is refused on the other host.
    token = api.headers["Authorization"]
    assert Api(other_tenant, headers={"Authorization": token}).get("/api/client/info").status_code == 401


def test_anonymous_is_401(anon):
    assert anon.get("/api/client/info").status_code == 401
    assert anon.post("/api/client/api-key/rotate").status_code == 401


def test_time_zone_defaults_to_utc_and_admins_change_it(api, tenant):
    assert api.get("/api/client/info").json()["data"]["company"]["timeZone"] == "UTC"
    response = api.put("/api/client/info", {"name": tenant.name, "contactName": "Jane Roe",
                                            "contactEmail": "jane@acme.example", "timeZone": "Pacific/Auckland"})
    assert response.status_code == 200, response.json()
    assert response.json()["data"]["company"]["timeZone"] == "Pacific/Auckland"
    assert Client.objects.get(pk=tenant.pk).time_zone == "Pacific/Auckland"
    # Clients that do not send it (the original payload) keep it.
    kept = api.put("/api/client/info", {"name": tenant.name, "contactName": "Jane Roe",
                                        "contactEmail": "jane@acme.example"})
    assert kept.status_code == 200 and kept.json()["data"]["company"]["timeZone"] == "Pacific/Auckland"


@pytest.mark.parametrize("zone", ["Mars/Olympus", "utc+2", "", "Europe/../etc/passwd", 5])
def test_time_zone_must_be_an_iana_name(api, tenant, zone):
    response = api.put("/api/client/info", {"name": tenant.name, "contactName": "Jane Roe",
                                            "contactEmail": "jane@acme.example", "timeZone": zone})
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["success"] is False and body["error"] == "validation_error"
    assert body["message"] == "Time zone must be an IANA time zone name, such as Europe/Paris or UTC"
    assert Client.objects.get(pk=tenant.pk).time_zone == "UTC"


def test_time_zone_of_one_company_is_not_changed_from_another(api, tenant, other_tenant):
    other_admin = tenant_admin(other_tenant)
    response = Api(other_tenant, user=other_admin).put(
        "/api/client/info", {"name": "Other Co", "contactName": "Jane Roe", "contactEmail": "j@o.example",
                             "timeZone": "Asia/Tokyo"})
    assert response.status_code == 200
    assert Client.objects.get(pk=tenant.pk).time_zone == "UTC"
    assert api.get("/api/client/info").json()["data"]["company"]["timeZone"] == "UTC"
    # A token of company A does not work on company B's host.
    token = api.headers["Authorization"]
    assert Api(other_tenant, headers={"Authorization": token}).put(
        "/api/client/info", {"timeZone": "Asia/Tokyo"}).status_code == 401
