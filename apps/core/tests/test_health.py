"""GET /api/health with each dependency down: 503, the failing check named, the others ok."""
import socket

import pytest
from django.db import connection
from django.test import override_settings


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def health(root_api):
    response = root_api.get("/api/health")
    return response.status_code, {name: check["status"] for name, check in response.json()["checks"].items()}


def test_all_up(root_api, db):
    assert health(root_api) == (200, {"database": "ok", "redis": "ok", "broker": "ok", "storage": "ok"})


def test_redis_down(root_api, db):
    with override_settings(REDIS_URL=f"redis://127.0.0.1:{closed_port()}/0"):
        status, checks = health(root_api)
    assert status == 503
    assert checks["redis"] == "down" and checks["database"] == "ok" and checks["storage"] == "ok"


def test_broker_down(root_api, db):
    with override_settings(CELERY_BROKER_URL=f"redis://127.0.0.1:{closed_port()}/0"):
        status, checks = health(root_api)
    assert status == 503
    assert checks["broker"] == "down" and checks["redis"] == "ok"


def test_storage_down(root_api, db, settings):
    s3 = {"BACKEND": "storages.backends.s3.S3Storage",
          "OPTIONS": {"bucket_name": "media", "endpoint_url": f"http://127.0.0.1:{closed_port()}",
                      "access_key": "key", "secret_key": "secret", "region_name": "us-east-1"}}
    alias = getattr(settings, "MEDIA_STORAGE_ALIAS", "default")
    with override_settings(STORAGES={**settings.STORAGES, "default": s3, alias: s3}, HEALTH_CHECK_TIMEOUT=1.0):
        status, checks = health(root_api)
    assert status == 503
    assert checks["storage"] == "down" and checks["database"] == "ok"


@pytest.mark.django_db(transaction=True)
def test_database_down(root_api):
    connection.close()
    original = connection.settings_dict["PORT"]
    connection.settings_dict["PORT"] = closed_port()
    try:
        status, checks = health(root_api)
    finally:
        connection.close()
        connection.settings_dict["PORT"] = original
    assert status == 503
    assert checks["database"] == "down" and checks["redis"] == "ok"
    assert health(root_api)[0] == 200  # and it recovers without a restart
