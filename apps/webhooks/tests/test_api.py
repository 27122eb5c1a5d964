"""Dashboard API of webhook endpoints: CRUD, the one-time secret, validation, the private-network
guard at save, permissions and isolation between companies."""
from __future__ import annotations

import pytest

from apps.core import testing

BODY = {"url": "http://127.0.0.1:9/hooks", "events": ["post.published", "post.deleted"]}


def _create(api, **overrides) -> dict:
    response = api.post("/api/webhooks", {**BODY, **overrides})
    assert response.status_code == 201, response.content
    return response.json()["endpoint"]


def test_admin_creates_lists_updates_and_deletes_an_endpoint(api):
    created = _create(api, description="Static site")
    assert created["secret"].startswith("whsec_") and len(created["secret"]) > 30
    assert created["events"] == ["post.published", "post.deleted"] and created["active"] is True
    assert created["disabledReason"] is None

    listed = api.get("/api/webhooks").json()
    assert [e["id"] for e in listed["endpoints"]] == [created["id"]]
    assert "secret" not in listed["endpoints"][0]  # shown once only
    assert "post.scheduled" in listed["events"] and "media.deleted" in listed["events"]
    assert "secret" not in api.get(f"/api/webhooks/{created['id']}").json()["endpoint"]

    updated = api.put(f"/api/webhooks/{created['id']}", {"active": False, "events": ["tag.created"]}).json()
    assert updated["endpoint"]["active"] is False and updated["endpoint"]["events"] == ["tag.created"]

    rotated = api.post(f"/api/webhooks/{created['id']}/secret/rotate").json()["endpoint"]["secret"]
    assert rotated.startswith("whsec_") and rotated != created["secret"]

    assert api.delete(f"/api/webhooks/{created['id']}").status_code == 200
    assert api.get(f"/api/webhooks/{created['id']}").status_code == 404


@pytest.mark.parametrize("body, field", [
    ({"url": "", "events": ["post.published"]}, "url"),
    ({"url": "ftp://example.com/x", "events": ["post.published"]}, "url"),
    ({"url": "https://example.com/x", "events": []}, "events"),
    ({"url": "https://example.com/x", "events": ["post.exploded"]}, "events"),
])
def test_bad_input_gets_the_validation_envelope(api, body, field):
    response = api.post("/api/webhooks", body)
    assert response.status_code == 400
    reply = response.json()
    assert reply["success"] is False and reply["error"] == "validation_error"
    assert reply["errors"][0]["field"] == field


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:8000/hook", "http://localhost/hook", "http://10.1.2.3/hook", "http://192.168.0.10/hook",
    "http://169.254.169.254/latest/meta-data/", "http://[::1]:8080/hook", "http://[::ffff:127.0.0.1]/hook",
    "http://100.64.0.1/hook", "http://0.0.0.0/hook",
])
def test_private_and_metadata_addresses_are_refused_at_save(api, settings, url):
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = False
    response = api.post("/api/webhooks", {"url": url, "events": ["post.published"]})
    assert response.status_code == 400, response.content
    assert response.json()["errors"][0]["field"] == "url"
    assert api.get("/api/webhooks").json()["endpoints"] == []
    # and on update of an existing endpoint
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    endpoint = _create(api)
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = False
    assert api.put(f"/api/webhooks/{endpoint['id']}", {"url": url}).status_code == 400


def test_a_public_address_is_accepted_with_the_guard_on(api, settings):
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = False
    assert api.post("/api/webhooks", {"url": "https://93.184.215.14/hook", "events": ["post.published"]}
                    ).status_code == 201


@pytest.mark.parametrize("role", ["editor", "author", "viewer"])
def test_only_admins_manage_webhooks(api, role_api, role):
    endpoint = _create(api)
    other = role_api(role)
    for method, path in [("get", "/api/webhooks"), ("post", "/api/webhooks"),
                         ("get", f"/api/webhooks/{endpoint['id']}"), ("put", f"/api/webhooks/{endpoint['id']}"),
                         ("delete", f"/api/webhooks/{endpoint['id']}"),
                         ("post", f"/api/webhooks/{endpoint['id']}/test"),
                         ("post", f"/api/webhooks/{endpoint['id']}/secret/rotate"),
                         ("get", f"/api/webhooks/{endpoint['id']}/deliveries")]:
        body = BODY if method in ("post", "put") else None
        response = getattr(other, method)(path, body) if body else getattr(other, method)(path)
        assert response.status_code == 403, (method, path, response.content)


def test_another_companys_admin_cannot_see_or_change_an_endpoint(api, tenant, other_tenant):
    endpoint = _create(api)
    delivery = api.post(f"/api/webhooks/{endpoint['id']}/test").json()["delivery"]
    other = testing.Api(other_tenant, user=testing.tenant_admin(other_tenant))
    assert other.get("/api/webhooks").json()["endpoints"] == []
    base = f"/api/webhooks/{endpoint['id']}"
    for method, path in [("get", base), ("put", base), ("delete", base), ("post", f"{base}/test"),
                         ("post", f"{base}/secret/rotate"), ("get", f"{base}/deliveries"),
                         ("post", f"{base}/deliveries/{delivery['id']}/redeliver")]:
        response = getattr(other, method)(path, {"active": False}) if method == "put" else getattr(other, method)(path)
        assert response.status_code == 404, (method, path)
        assert endpoint["id"] not in response.content.decode()
    # B's token on A's host: 401
    stolen = testing.Api(tenant, token=other.headers["Authorization"].split()[1])
    assert stolen.get(base).status_code == 401
    assert api.get(base).json()["endpoint"]["active"] is True  # unchanged


def test_test_event_and_redelivery_are_logged(api):
    endpoint = _create(api)
    queued = api.post(f"/api/webhooks/{endpoint['id']}/test")
    assert queued.status_code == 202
    delivery = queued.json()["delivery"]
    assert delivery["event"] == "webhook.test" and delivery["status"] == "pending"
    again = api.post(f"/api/webhooks/{endpoint['id']}/deliveries/{delivery['id']}/redeliver")
    assert again.status_code == 202
    assert again.json()["delivery"]["webhookId"] == delivery["webhookId"]  # the same event
    log = api.get(f"/api/webhooks/{endpoint['id']}/deliveries").json()
    assert log["pagination"]["total"] == 2
    assert api.post(f"/api/webhooks/{endpoint['id']}/deliveries/not-a-uuid/redeliver").status_code == 404


@pytest.mark.parametrize("url", [
    "https://example.com/ho\r\nX-Injected: 1", "https://example.com/a\nb", "https://exa\tmple.com/hook",
    "https://example.com/hook\n", "\thttps://example.com/hook", "https://example.com/hook\r",
])
def test_a_url_with_a_tab_or_line_break_is_refused_at_create_and_update(api, url):
    """Were stored as typed (urlsplit drops them silently) and shown so in the dashboard, the delivery
    log and the plain-text email that an endpoint was disabled; refused like NUL, even at the ends."""
    response = api.post("/api/webhooks", {"url": url, "events": ["post.published"]})
    assert response.status_code == 400, response.content
    reply = response.json()
    assert reply["errors"] == [{"field": "url", "message": "URL must not contain tabs or line breaks"}]
    assert api.get("/api/webhooks").json()["endpoints"] == []
    endpoint = _create(api)
    updated = api.put(f"/api/webhooks/{endpoint['id']}", {"url": url})
    assert updated.status_code == 400 and updated.json()["errors"][0]["field"] == "url"
    assert api.get(f"/api/webhooks/{endpoint['id']}").json()["endpoint"]["url"] == BODY["url"]


def test_spaces_around_a_url_are_still_trimmed(api):
    assert _create(api, url="  http://127.0.0.1:9/trimmed  ")["url"] == "http://127.0.0.1:9/trimmed"


def test_descriptions_are_stored_without_the_characters_xml_forbids(api):
    """The input rule of apps.core.text: U+000B becomes a space, other C0 controls and U+FFFE go."""
    created = _create(api, description="Static\x0bsite\x01 build\ufffe")
    assert created["description"] == "Static site build"
    updated = api.put(f"/api/webhooks/{created['id']}", {"description": "Pre\x0cview\x1f"}).json()
    assert updated["endpoint"]["description"] == "Pre view"
