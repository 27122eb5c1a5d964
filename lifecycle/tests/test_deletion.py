"""Deleting a company removes everything it has (schema, domains, media, Redis keys) and nothing
of any other company; an admin asks for it from Settings and the company stops answering at once."""
from __future__ import annotations

import tarfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, connections
from django_tenants.utils import schema_context, schema_exists

from apps.core.testing import DEFAULT_PASSWORD, Api, create_user, tenant_admin
from apps.media.storage import media_keys, media_storage
from tenants.models import Client, Domain
from lifecycle.tests.test_backup import populate


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")


@pytest.fixture
def pair(make_tenant):
    """Two companies whose schema names share a prefix (t_delN and t_delNx): a purge by name
    must not take the other one's keys."""
    stem = f"del{int(time.time() * 1000) % 10**8}"
    return make_tenant(stem), make_tenant(f"{stem}x")


def redis_keys_of(schema: str) -> list[bytes]:
    client = redis.Redis.from_url(settings.REDIS_URL)
    return sorted(k for k in client.keys("*") if schema.encode() in k.split(b":"))


def leave_traces(tenant) -> None:
    """What a company leaves in Redis while it is used: cache entries, its content version,
    public API replies and an analytics event."""
    from django.core.cache import cache

    populate(tenant)
    with schema_context(tenant.schema_name):
        cache.set("something", "cached")
    public = Api(tenant, headers={"x-api-key": tenant.api_key})
    assert public.get("/api/v1/posts").status_code == 200
    assert public.post("/api/v1/analytics/track", {"pageUrl": "https://example.com/hello", "referrer": "",
                                                   "postSlug": "hello"}).status_code in (200, 201)


def test_the_operator_command_backs_up_then_removes_everything_of_one_company_only(transactional_db, pair, tmp_path,
                                                                                 capsys):
    doomed, neighbour = pair
    leave_traces(doomed)
    leave_traces(neighbour)
    storage = media_storage()
    assert media_keys(storage, f"{doomed.schema_name}/") and redis_keys_of(doomed.schema_name)
    neighbour_keys = redis_keys_of(neighbour.schema_name)
    neighbour_files = media_keys(storage, f"{neighbour.schema_name}/")
    backup = tmp_path / "doomed.tar.gz"

    call_command("tenant_delete", doomed.subdomain, "--backup", str(backup), "--yes")

    assert "deleted" in capsys.readouterr().out
    with tarfile.open(backup) as archive:
        assert "manifest.json" in archive.getnames()
    assert not Client.objects.filter(pk=doomed.pk).exists()
    assert not Domain.objects.filter(tenant_id=doomed.pk).exists()
    assert not schema_exists(doomed.schema_name)
    assert media_keys(storage, f"{doomed.schema_name}/") == []
    assert redis_keys_of(doomed.schema_name) == []
    # The neighbour keeps everything, and still works.
    assert redis_keys_of(neighbour.schema_name) == neighbour_keys
    assert media_keys(storage, f"{neighbour.schema_name}/") == neighbour_files
    assert Api(neighbour, headers={"x-api-key": neighbour.api_key}).get("/api/v1/posts").json()["data"]["posts"]
    assert Api(doomed).get("/api/auth/me").status_code == 404


def test_the_command_wants_the_subdomain_typed_unless_told_yes(tenant, monkeypatch):
    monkeypatch.setattr("builtins.input", lambda prompt: "not-it")
    with pytest.raises(CommandError, match="Not confirmed"):
        call_command("tenant_delete", tenant.subdomain)
    assert schema_exists(tenant.schema_name)
    with pytest.raises(CommandError, match="No company"):
        call_command("tenant_delete", "no-such-company", "--yes")


def delete_request(tenant, user, **body):
    payload = {"confirmSubdomain": tenant.subdomain, "password": DEFAULT_PASSWORD, **body}
    return Api(tenant, user=user).post("/api/client/delete", payload)


@pytest.mark.parametrize("role", ["editor", "author", "viewer"])
def test_only_an_admin_may_delete_the_company(tenant, role):
    response = delete_request(tenant, create_user(tenant, role))
    assert response.status_code == 403
    assert response.json()["message"] == "Only administrators can delete the company"
    assert Client.objects.get(pk=tenant.pk).status != "deleting"


def test_the_subdomain_and_the_password_must_be_given_again(tenant, admin):
    wrong = delete_request(tenant, admin, confirmSubdomain="nope", password="wrong-password")
    assert wrong.status_code == 400
    assert wrong.json()["errors"] == [
        {"field": "confirmSubdomain", "message": "Type your company's subdomain exactly to confirm"},
        {"field": "password", "message": "Password is incorrect"},
    ]
    assert Client.objects.get(pk=tenant.pk).status != "deleting"


def test_an_admin_of_another_company_cannot_delete_this_one(make_tenant):
    first, second = make_tenant(), make_tenant()
    token_of_second = Api(second, user=tenant_admin(second)).headers["Authorization"]
    response = Api(first, headers={"Authorization": token_of_second}).post(
        "/api/client/delete", {"confirmSubdomain": first.subdomain, "password": DEFAULT_PASSWORD})
    assert response.status_code == 401
    assert Client.objects.get(pk=first.pk).status != "deleting"


@pytest.mark.slow
def test_an_admin_deletes_the_company_it_stops_answering_at_once_and_the_worker_removes_it(
        make_tenant, celery_worker_process):
    tenant = make_tenant()
    neighbour = make_tenant()
    leave_traces(tenant)
    admin = tenant_admin(tenant)
    celery_worker_process.stop()  # the heavy part waits on the queue: the company is gone already

    started = time.monotonic()
    response = delete_request(tenant, admin)
    answered_in = time.monotonic() - started
    assert response.status_code == 202, response.json()
    assert response.json()["message"].startswith("Your company is being deleted")
    assert answered_in < 5  # the work itself is queued (figures in docs/ come from bench runs)

    gone = Api(tenant, user=admin).get("/api/auth/me")
    assert gone.status_code == 404 and gone.json()["message"] == "No company is registered at this address"
    assert Api(tenant, headers={"x-api-key": tenant.api_key}).get("/api/v1/posts").status_code in (401, 404)
    assert Api(tenant).post("/api/auth/login", {"email": "admin@example.com", "password": DEFAULT_PASSWORD}
                            ).status_code == 404

    celery_worker_process.env["MEDIA_ROOT"] = settings.MEDIA_ROOT  # this test's media folder
    celery_worker_process.start()
    deadline = time.monotonic() + 60  # the worker's last step is the Redis purge, after the drop
    while ((Client.objects.filter(pk=tenant.pk).exists() or redis_keys_of(tenant.schema_name))
           and time.monotonic() < deadline):
        time.sleep(0.3)
    assert not Client.objects.filter(pk=tenant.pk).exists()
    assert not schema_exists(tenant.schema_name)
    assert media_keys(media_storage(), f"{tenant.schema_name}/") == []
    assert redis_keys_of(tenant.schema_name) == []
    assert Api(neighbour, user=tenant_admin(neighbour)).get("/api/auth/me").status_code == 200


def test_two_admins_deleting_at_the_same_moment_get_202_or_404(transactional_db, make_tenant, monkeypatch):
    queued = []
    monkeypatch.setattr("lifecycle.deletion._queue_deletion", queued.append)
    tenant = make_tenant()
    admins = [tenant_admin(tenant), create_user(tenant, "admin")]
    barrier = threading.Barrier(len(admins))

    def delete(user):
        try:
            api = Api(tenant, user=user)
            barrier.wait()
            return delete_request(tenant, user).status_code if api else None
        finally:
            connections.close_all()

    with ThreadPoolExecutor(len(admins)) as pool:
        statuses = sorted(pool.map(delete, admins))
    connection.set_schema_to_public()
    assert statuses in ([202, 202], [202, 404]), statuses
    assert Client.objects.get(pk=tenant.pk).status == "deleting"
    assert len(queued) == statuses.count(202)


def test_password_guesses_on_deletion_are_throttled_like_logins(tenant, admin, settings):
    settings.LOGIN_MAX_FAILURES = 2
    for _ in range(2):
        assert delete_request(tenant, admin, password="wrong-guess").status_code == 400
    refused = delete_request(tenant, admin)  # even the right password waits now
    assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
    assert Client.objects.get(pk=tenant.pk).status != "deleting"
