import pytest
from django.test import Client as HttpClient

from apps.core.testing import Api
from tenants.models import Client


def test_unknown_api_route_is_a_json_404(api):
    for path in ("/api/nothing", "/api/nothing/deeper/", "/api"):
        response = api.get(path)
        assert response.status_code == 404
        assert response.json() == {"success": False, "message": "Endpoint not found", "error": "not_found"}


def test_paths_work_with_and_without_trailing_slash(api):
    assert api.get("/api/auth/me").status_code == 200
    assert api.get("/api/auth/me/").status_code == 200


def test_wrong_method_gets_an_envelope(api):
    response = api.delete("/api/auth/login")
    assert response.status_code == 405
    assert response.json()["success"] is False


def test_server_errors_leak_no_trace(api, monkeypatch):
    from apps.accounts import api as accounts_api

    def broken(*args, **kwargs):
        raise RuntimeError("secret internals: password=hunter2")

    monkeypatch.setattr(accounts_api.selectors, "user_list", broken)
    response = api.get("/api/users")
    assert response.status_code == 500
    assert response.json() == {"success": False, "message": "Internal server error", "error": "server_error"}
    assert b"hunter2" not in response.content and b"Traceback" not in response.content


def test_unknown_host_gets_json_404_on_api_and_the_spa_404_elsewhere(db):
    http = HttpClient(HTTP_HOST="nobody.testserver.local")
    api_response = http.get("/api/posts")
    assert api_response.status_code == 404
    assert api_response.json()["error"] == "not_found"
    page = http.get("/dashboard")
    assert page.status_code == 404
    assert page["Content-Type"].startswith("text/html")
    assert b'"tenantFound": false' in page.content


def test_tenant_host_serves_the_spa_with_its_config(tenant):
    page = HttpClient(HTTP_HOST=f"{tenant.subdomain}.testserver.local").get("/dashboard/posts")
    assert page.status_code == 200
    assert f'"tenant": "{tenant.subdomain}"'.encode() in page.content
    assert b'"rootDomain": "testserver.local"' in page.content
    # The sign-in page names the company, not only its subdomain.
    assert f'"companyName": "{tenant.name}"'.encode() in page.content


def test_company_name_in_the_page_config_cannot_close_the_script(tenant):
    Client.objects.filter(pk=tenant.pk).update(name="Acme </script><script>alert(1)</script>")
    page = HttpClient(HTTP_HOST=f"{tenant.subdomain}.testserver.local").get("/login")
    assert page.status_code == 200
    assert b"</script><script>alert(1)" not in page.content
    assert b"Acme \\u003c/script>" in page.content


def test_suspended_company_api_answers_403(tenant, admin):
    token_api = Api(tenant, user=admin)
    Client.objects.filter(pk=tenant.pk).update(status="suspended")
    for response in (token_api.get("/api/auth/me"),
                     Api(tenant).post("/api/auth/login", {"email": "admin@example.com", "password": "password123"})):
        assert response.status_code == 403
        assert response.json()["message"] == "This company account is suspended. Please contact support."
    Client.objects.filter(pk=tenant.pk).update(status="active")
    assert token_api.get("/api/auth/me").status_code == 200


def test_health_on_the_root_domain(root_api, db):
    response = root_api.get("/api/health")
    assert response.status_code == 200
    assert response.json()["checks"]["database"]["status"] == "ok"
    assert response.json()["checks"]["redis"]["status"] == "ok"


@pytest.mark.parametrize("path", ["/api/auth/login", "/api/users"])
def test_tenant_routes_do_not_exist_on_the_root_domain(root_api, path):
    assert root_api.get(path).status_code == 404
