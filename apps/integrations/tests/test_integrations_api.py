"""Settings -> Integrations on the dashboard API (admins only): named integrations with a Content
API key and an Admin API key in Ghost's forms, shown once, rotated and deleted; the company's own
Ghost content key is its first integration and keeps working."""
from __future__ import annotations

import re

import pytest
from django_tenants.utils import schema_context

from apps.core.testing import Api, create_user, tenant_admin
from apps.ghost_api.tests.admin_client import Admin
from tenants.addresses import tenant_base_url
from tenants.models import Client

CONTENT = "/ghost/api/content/posts/"


def _content_status(tenant, key: str) -> int:
    return Api(tenant).get(CONTENT, data={"key": key}).status_code


def test_an_admin_creates_an_integration_and_sees_its_keys_once(api, tenant):
    response = api.post("/api/integrations", {"name": "iA Writer"})
    assert response.status_code == 201, response.content
    made = response.json()["integration"]
    assert re.fullmatch(r"[0-9a-f]{26}", made["contentKey"])
    assert re.fullmatch(r"[0-9a-f]{24}:[0-9a-f]{64}", made["adminKey"])
    assert made["adminKeyId"] == made["adminKey"].split(":")[0] and made["adminKeyHint"] == made["adminKey"][-4:]
    assert made["contentKeyHint"] == made["contentKey"][-4:] and made["companyKey"] is False
    listed = api.get("/api/integrations").json()
    assert listed["ghostUrl"] == tenant_base_url(tenant.subdomain)  # what a tool asks for as the Ghost URL
    assert [i["name"] for i in listed["integrations"]] == ["Website", "iA Writer"]
    for integration in listed["integrations"]:
        assert "contentKey" not in integration and "adminKey" not in integration  # never again
    website = listed["integrations"][0]
    assert website["companyKey"] is True and website["adminKeyId"] is None
    assert website["contentKeyHint"] == tenant.ghost_content_key[-4:]
    # the keys work: the content key on the Content API, the admin key on the Admin API
    assert _content_status(tenant, made["contentKey"]) == 200
    assert Api(tenant).get("/api/v1/posts", headers={"x-api-key": made["contentKey"]}).status_code == 401
    assert Admin(tenant, made["adminKey"]).get("posts/").status_code == 200
    with schema_context(tenant.schema_name):
        from apps.integrations.models import Integration

        row = Integration.objects.get(name="iA Writer")
        secret = made["adminKey"].split(":")[1]
        assert secret not in row.admin_secret and made["contentKey"] not in row.content_key_hash  # kept hashed, encrypted


def test_only_admins_manage_integrations(tenant):
    for role in ("editor", "author", "viewer"):
        client = Api(tenant, user=create_user(tenant, role))
        for call in (client.get("/api/integrations"), client.post("/api/integrations", {"name": "x"})):
            assert call.status_code == 403
            assert call.json()["message"] == "Only administrators can manage integrations"


def test_a_name_is_required(api):
    response = api.post("/api/integrations", {"name": "  "})
    assert response.status_code == 400 and response.json()["errors"][0] == {"field": "name",
                                                                             "message": "Name is required"}


def test_the_companys_ghost_key_is_the_first_integration_and_keeps_working(api, tenant):
    key = tenant.ghost_content_key
    website = api.get("/api/integrations").json()["integrations"][0]
    assert _content_status(tenant, key) == 200
    assert api.delete(f"/api/integrations/{website['id']}").status_code == 409
    # its Admin API key is made when it is rotated; its content key is left alone
    rotated = api.post(f"/api/integrations/{website['id']}/rotate", {"keys": ["admin"]}).json()["integration"]
    assert "contentKey" not in rotated and re.fullmatch(r"[0-9a-f]{24}:[0-9a-f]{64}", rotated["adminKey"])
    assert _content_status(tenant, key) == 200
    assert Admin(tenant, rotated["adminKey"]).get("posts/").status_code == 200
    # its content key is the company's Ghost content key: rotated there
    api_key = Client.objects.get(pk=tenant.pk).api_key
    again = api.post(f"/api/integrations/{website['id']}/rotate", {"keys": ["content"]}).json()["integration"]
    fresh = Client.objects.get(pk=tenant.pk)
    assert again["contentKey"] == fresh.ghost_content_key != key and fresh.api_key == api_key
    assert _content_status(tenant, key) == 401 and _content_status(tenant, again["contentKey"]) == 200
    assert api.get("/api/client/info").json()["data"]["apiInfo"]["ghost"]["contentApiKey"] == again["contentKey"]


def test_rotation_and_deletion_stop_the_old_keys(api, tenant):
    made = api.post("/api/integrations", {"name": "Zapier"}).json()["integration"]
    rotated = api.post(f"/api/integrations/{made['id']}/rotate", {}).json()["integration"]  # both keys
    assert rotated["contentKey"] != made["contentKey"] and rotated["adminKey"] != made["adminKey"]
    assert _content_status(tenant, made["contentKey"]) == 401
    assert Admin(tenant, made["adminKey"]).get("posts/").status_code == 401
    assert _content_status(tenant, rotated["contentKey"]) == 200
    assert api.delete(f"/api/integrations/{made['id']}").json()["message"].startswith("Integration deleted")
    assert _content_status(tenant, rotated["contentKey"]) == 401
    assert Admin(tenant, rotated["adminKey"]).get("posts/").status_code == 401
    assert api.post(f"/api/integrations/{made['id']}/rotate", {}).status_code == 404
    with schema_context(tenant.schema_name):
        from apps.audit.models import AuditEntry

        actions = list(AuditEntry.objects.filter(object_type="integration").order_by("created_at")
                       .values_list("action", "summary", "actor_name"))
    admin_name = actions[0][2]
    assert actions == [("integration.created", "Zapier", admin_name),
                       ("integration.rotated", "Zapier: Content API key and Admin API key", admin_name),
                       ("integration.deleted", "Zapier", admin_name)]
    assert admin_name.startswith("admin-")


def test_rotate_takes_only_known_keys(api):
    made = api.post("/api/integrations", {"name": "n8n"}).json()["integration"]
    for body in ({"keys": []}, {"keys": ["password"]}):
        assert api.post(f"/api/integrations/{made['id']}/rotate", body).status_code == 400
    # the contract's words, naming the field, not the validator's
    refused = api.post(f"/api/integrations/{made['id']}/rotate", {"keys": ["password"]}).json()
    assert refused["errors"] == [{"field": "keys.0", "message": "Keys must be 'content' or 'admin'"}]


def test_another_companys_integration_is_not_found(api, other_tenant):
    other = Api(other_tenant, user=tenant_admin(other_tenant))
    theirs = other.post("/api/integrations", {"name": "Theirs"}).json()["integration"]
    assert api.post(f"/api/integrations/{theirs['id']}/rotate", {}).status_code == 404
    assert api.delete(f"/api/integrations/{theirs['id']}").status_code == 404
    assert "Theirs" not in str(api.get("/api/integrations").json())
    # nor do its keys open this company's APIs
    tenant = api.tenant
    assert _content_status(tenant, theirs["contentKey"]) == 401
    assert Admin(tenant, theirs["adminKey"]).get("posts/").status_code == 401


@pytest.mark.parametrize("path", ["/api/integrations"])
def test_signed_out_is_401(anon, path):
    assert anon.get(path).status_code == 401
