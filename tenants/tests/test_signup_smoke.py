from apps.core.testing import Api


def test_register_client_creates_a_usable_tenant(root_api, db):
    response = root_api.post("/api/auth/register-client", {
        "companyName": "Acme", "contactName": "Jo Smith", "contactEmail": "jo@acme.com",
        "subdomain": "acme-co", "adminUsername": "joe", "adminEmail": "jo@acme.com", "adminPassword": "password1",
    })
    assert response.status_code == 201, response.json()
    assert response.json()["data"]["loginUrl"] == "http://acme-co.testserver.local/login"

    from tenants.models import Client
    tenant = Client.objects.get(subdomain="acme-co")
    login = Api(tenant).post("/api/auth/login", {"email": "jo@acme.com", "password": "password1"})
    assert login.status_code == 200, login.json()
    assert login.json()["user"]["role"] == "admin"
