"""The audit log: each event is recorded once, by whom and from where (a daily keyed hash of the
address), in the same transaction as the change; the Activity list (admins only, filters, pages,
a fixed number of queries); retention; the company backup carries it."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.audit.models import AuditEntry
from apps.audit.services import audit_prune
from apps.audit.tasks import prune
from apps.content.tests.conftest import post_payload
from apps.content.tests.factories import make_category, make_media, make_post
from apps.core import testing


def entries(tenant, **filters) -> list[AuditEntry]:
    with schema_context(tenant.schema_name):
        rows = list(AuditEntry.objects.filter(**filters).order_by("created_at"))
    connection.set_schema_to_public()
    return rows


def actions(tenant) -> list[str]:
    return [entry.action for entry in entries(tenant)]


def test_sign_in_and_failed_sign_in_are_recorded_with_a_hashed_address(tenant, admin):
    anon = testing.Api(tenant)
    anon.http.defaults["REMOTE_ADDR"] = "203.0.113.7"
    assert anon.post("/api/auth/login", {"email": admin.email, "password": "wrong-password"}).status_code == 401
    assert anon.post("/api/auth/login", {"email": "nobody@example.com", "password": "x" * 10}).status_code == 401
    ok = anon.post("/api/auth/login", {"email": admin.email, "password": testing.DEFAULT_PASSWORD})
    assert ok.status_code == 200, ok.content
    failed = entries(tenant, action="auth.login_failed")
    assert [(e.actor_id, e.actor_name, e.summary) for e in failed] == [
        (None, admin.username, "Wrong password"), (None, "", "Unknown email")]
    assert failed[1].object_id == "" and "nobody" not in failed[1].summary
    login = entries(tenant, action="auth.login")
    assert len(login) == 1 and login[0].actor_id == admin.pk
    hashes = {e.client_hash for e in failed + login}
    assert len(hashes) == 1 and len(hashes.pop()) == 32  # one address, one day: one hash
    assert all("203.0.113.7" not in (e.client_hash + e.summary) for e in failed + login)


def test_user_events_are_recorded_once_each(api, tenant, admin):
    created = api.post("/api/auth/register-user", {"username": "sam", "email": "sam@example.com",
                                                   "password": "a-long-password-1", "role": "author"})
    assert created.status_code == 201, created.content
    user_id = created.json()["user"]["id"]
    assert api.put(f"/api/users/{user_id}", {"role": "editor"}).status_code == 200
    assert api.put(f"/api/users/{user_id}", {"status": "suspended", "username": "samuel"}).status_code == 200
    assert api.put(f"/api/users/{user_id}", {"role": "editor"}).status_code == 200  # no change: nothing recorded
    assert api.delete(f"/api/users/{user_id}").status_code == 200
    rows = entries(tenant, object_id=user_id)
    assert [(e.action, e.summary) for e in rows] == [
        ("user.created", "sam (author)"),
        ("user.role_changed", "sam: author -> editor"),
        ("user.status_changed", "samuel: active -> suspended"),
        ("user.updated", "samuel: username"),
        ("user.deleted", "samuel (editor)"),
    ]
    assert {e.actor_id for e in rows} == {admin.pk}


def test_post_events_are_recorded_once_each(api, tenant, admin):
    category, media = make_category(tenant), make_media(tenant)
    created = api.post("/api/posts", post_payload(category, media, postTitle="Launch day"))
    assert created.status_code == 201, created.content
    post_id = created.json()["post"]["id"]
    assert api.put(f"/api/posts/{post_id}", {"title": "Launch day!"}).status_code == 200
    assert api.put(f"/api/posts/{post_id}", {"status": "published"}).status_code == 200
    assert api.put(f"/api/posts/{post_id}", {"status": "draft"}).status_code == 200
    first = api.get(f"/api/posts/{post_id}/revisions").json()["revisions"][-1]["id"]
    assert api.post(f"/api/posts/{post_id}/revisions/{first}/restore").status_code == 200
    assert api.delete(f"/api/posts/{post_id}").status_code == 200
    assert [e.action for e in entries(tenant, object_id=post_id)] == [
        "post.created", "post.updated", "post.published", "post.unpublished", "post.restored", "post.deleted"]
    assert entries(tenant, object_id=post_id)[1].summary == "Launch day!"


def test_review_taxonomy_media_settings_and_key_events(api, tenant, admin):
    author = testing.create_user(tenant, "author")
    draft = make_post(tenant, "Draft", author=author, categories=[make_category(tenant)],
                      featured_image=make_media(tenant))
    assert testing.Api(tenant, user=author).post(f"/api/posts/{draft.pk}/review/request").status_code == 200
    assert api.post(f"/api/posts/{draft.pk}/review/return", {"note": "Shorter title"}).status_code == 200
    category = api.post("/api/categories/add", {"name": "Ops", "slug": "ops"}).json()["category"]
    api.put(f"/api/categories/{category['id']}", {"name": "Operations"})
    api.delete(f"/api/categories/{category['id']}")
    tag = api.post("/api/tags/add", {"name": "K8s", "slug": "k8s"}).json()["tag"]
    api.put(f"/api/tags/{tag['id']}", {"name": "Kubernetes"})
    api.delete(f"/api/tags/{tag['id']}")
    media = make_media(tenant)
    assert api.put(f"/api/media/{media.pk}", {"altText": "A new alt"}).status_code == 200
    assert api.delete(f"/api/media/{media.pk}").status_code == 200
    with schema_context("public"):
        tenant.refresh_from_db()
    assert api.put("/api/client/info", {"name": "Renamed Co", "contactName": tenant.contact_name,
                                        "contactEmail": tenant.contact_email}).status_code == 200
    assert api.post("/api/client/api-key/rotate").status_code == 200
    recorded = actions(tenant)
    assert recorded == [
        "post.review_requested", "post.review_returned",
        "category.created", "category.updated", "category.deleted",
        "tag.created", "tag.updated", "tag.deleted",
        "media.updated", "media.deleted", "settings.updated", "api_key.rotated",
    ]
    assert entries(tenant, action="post.review_requested")[0].actor_id == author.pk
    assert entries(tenant, action="settings.updated")[0].summary == "name"


def test_a_change_that_fails_records_nothing(api, tenant):
    make_category(tenant, slug="taken")
    assert api.post("/api/categories/add", {"name": "Again", "slug": "taken"}).status_code == 409
    author = testing.create_user(tenant, "author")
    live = make_post(tenant, "Live", status="published", author=author)
    assert testing.Api(tenant, user=author).delete(f"/api/posts/{live.pk}").status_code == 403
    assert actions(tenant) == []


def _fill(tenant, count: int, **fields) -> None:
    with schema_context(tenant.schema_name):
        AuditEntry.objects.bulk_create([AuditEntry(action="post.updated", object_type="post",
                                                   object_id=str(n), summary=f"Post {n}", **fields)
                                        for n in range(count)])
    connection.set_schema_to_public()


def test_activity_list_filters_and_pages(api, tenant, admin):
    editor = testing.create_user(tenant, "editor")
    _fill(tenant, 30, actor=editor, actor_name=editor.username)
    _fill(tenant, 3, actor=admin, actor_name=admin.username)
    with schema_context(tenant.schema_name):
        old = AuditEntry.objects.create(action="tag.deleted", object_type="tag", object_id="t1", summary="Old")
        AuditEntry.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=10))
    connection.set_schema_to_public()

    first = api.get("/api/audit", {"limit": 20}).json()
    assert first["pagination"]["total"] == 34 and len(first["entries"]) == 20
    assert first["entries"][-1]["createdAt"] >= api.get("/api/audit", {"limit": 20, "page": 2}).json()[
        "entries"][0]["createdAt"]
    assert {"value": "auth.login_failed", "label": "Failed sign-in"} in first["actions"]
    by_user = api.get("/api/audit", {"user": str(editor.pk)}).json()
    assert by_user["pagination"]["total"] == 30 and {e["username"] for e in by_user["entries"]} == {editor.username}
    assert api.get("/api/audit", {"action": "tag.deleted"}).json()["entries"][0]["summary"] == "Old"
    assert api.get("/api/audit", {"objectType": "tag"}).json()["pagination"]["total"] == 1
    today = timezone.now().date()
    recent = api.get("/api/audit", {"from": (today - timedelta(days=1)).isoformat(), "to": today.isoformat()}).json()
    assert recent["pagination"]["total"] == 33
    older = api.get("/api/audit", {"to": (today - timedelta(days=5)).isoformat()}).json()
    assert [e["summary"] for e in older["entries"]] == ["Old"]


@pytest.mark.parametrize("query, field", [
    ({"action": "post.exploded"}, "action"), ({"objectType": "planet"}, "objectType"), ({"user": "bob"}, "user"),
    ({"from": "yesterday"}, "from"), ({"to": "2026-13-01"}, "to"), ({"from": "2026-05-02", "to": "2026-05-01"}, "from"),
    ({"limit": "0"}, "limit"),
])
def test_bad_filters_get_the_validation_envelope(api, query, field):
    response = api.get("/api/audit", query)
    assert response.status_code == 400, response.content
    reply = response.json()
    assert reply["error"] == "validation_error" and reply["errors"][0]["field"] == field


def test_the_list_costs_the_same_queries_for_5_and_50_entries(api, tenant):
    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert api.get("/api/audit", {"limit": 100}).status_code == 200
        return len(queries)

    _fill(tenant, 5)
    few = count()
    _fill(tenant, 45)
    assert count() == few <= 6


@pytest.mark.parametrize("role", ["editor", "author", "viewer"])
def test_only_admins_read_the_activity_log(role_api, role):
    response = role_api(role).get("/api/audit")
    assert response.status_code == 403 and response.json()["error"] == "forbidden"


def test_another_companys_log_is_not_reachable(api, tenant, other_tenant):
    _fill(tenant, 2)
    other = testing.Api(other_tenant, user=testing.tenant_admin(other_tenant))
    assert other.get("/api/audit").json()["pagination"]["total"] == 0
    stolen = testing.Api(tenant, token=other.headers["Authorization"].split()[1])
    assert stolen.get("/api/audit").status_code == 401
    assert testing.Api(tenant).get("/api/audit").status_code == 401


def test_retention_drops_old_entries_in_every_company(tenant, other_tenant, settings):
    settings.AUDIT_LOG_DAYS = 30
    for company in (tenant, other_tenant):
        _fill(company, 2)
        with schema_context(company.schema_name):
            AuditEntry.objects.filter(object_id="0").update(created_at=timezone.now() - timedelta(days=31))
        connection.set_schema_to_public()
    assert prune() == 2
    assert [e.object_id for e in entries(tenant)] == ["1"] and [e.object_id for e in entries(other_tenant)] == ["1"]
    with schema_context(tenant.schema_name):
        assert audit_prune(days=30) == 0


def test_a_company_deletion_request_is_recorded_in_its_log(tenant, admin):
    response = testing.Api(tenant, user=admin).post(
        "/api/client/delete", {"confirmSubdomain": tenant.subdomain, "password": testing.DEFAULT_PASSWORD})
    assert response.status_code == 202, response.content
    rows = entries(tenant, action="company.deletion_requested")
    assert len(rows) == 1 and rows[0].actor_id == admin.pk and rows[0].summary == tenant.subdomain


def test_a_refused_deletion_request_records_nothing(tenant, admin):
    response = testing.Api(tenant, user=admin).post("/api/client/delete", {"confirmSubdomain": "nope", "password": "x"})
    assert response.status_code == 400
    assert entries(tenant, action="company.deletion_requested") == []


def test_the_company_backup_carries_the_log(make_tenant, tmp_path, settings):
    from lifecycle.backup import tenant_backup, tenant_restore

    settings.MEDIA_ROOT = str(tmp_path / "media")
    source = make_tenant()
    testing.Api(source, user=testing.tenant_admin(source)).post("/api/tags/add", {"name": "Kept", "slug": "kept"})
    assert actions(source) == ["tag.created"]
    summary = tenant_backup(client=source, path=tmp_path / "backup.tar.gz")
    assert summary.rows >= 1
    restored = tenant_restore(path=tmp_path / "backup.tar.gz", subdomain=testing.unique_subdomain("restored"))
    assert [(e.action, e.summary) for e in entries(restored)] == [("tag.created", "Kept")]
