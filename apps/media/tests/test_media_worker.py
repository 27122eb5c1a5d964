"""Renditions made by a real Celery worker (a subprocess on the test database and broker),
on local disk and on S3 (moto server mode), enqueued when the upload commits."""
from __future__ import annotations

import io
import time

import pytest
import requests
from PIL import Image

from apps.media.tests.conftest import make_image, upload

pytestmark = pytest.mark.django_db(transaction=True)


def wait_for_renditions(api, media_id: str, timeout: float = 45.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        media = api.get(f"/api/media/{media_id}").json()["media"]
        if all(media["renditions"].values()):
            return media
        time.sleep(0.2)
    raise AssertionError(f"renditions not made in {timeout}s: {media}")


@pytest.fixture
def local_worker(media_root, monkeypatch, request):
    monkeypatch.setenv("MEDIA_ROOT", str(media_root))
    monkeypatch.setenv("MEDIA_STORAGE", "local")
    return request.getfixturevalue("celery_worker_process")


@pytest.fixture
def s3_worker(s3, monkeypatch, request):
    for name, value in s3.env.items():
        monkeypatch.setenv(name, value)
    return request.getfixturevalue("celery_worker_process")


def test_worker_makes_renditions_on_local_disk(api, tenant, media_root, local_worker):
    media = upload(api, make_image("PNG", (1000, 700)), file_name="diagram.png").json()["media"]

    media = wait_for_renditions(api, media["id"])

    rendition_dir = media_root / tenant.schema_name / "media" / media["id"] / "renditions"
    assert sorted(p.name for p in rendition_dir.iterdir()) == sorted(
        f"{w}w.{ext}" for w in (150, 480, 960, 1000) for ext in ("png", "webp"))
    assert media["renditions"]["large"].endswith("/renditions/1000w.webp")  # never upscaled past 1000
    assert Image.open(rendition_dir / "480w.webp").size == (480, 336)

    assert api.delete(f"/api/media/{media['id']}").status_code == 200  # commits: files go at once
    assert not (media_root / tenant.schema_name / "media" / media["id"]).exists()


def test_worker_makes_renditions_on_s3(api, tenant, s3, s3_worker):
    media = upload(api, make_image("JPEG", (1700, 900)), file_name="hero.jpg", content_type="image/jpeg").json()["media"]
    assert media["renditions"]["thumbnail"] is None  # the API serves the original until then

    media = wait_for_renditions(api, media["id"])

    prefix = f"{tenant.schema_name}/media/{media['id']}/"
    assert len(s3.keys(prefix)) == 1 + 4 * 2
    large = requests.get(media["renditions"]["large"], timeout=10)
    assert large.status_code == 200 and Image.open(io.BytesIO(large.content)).size == (1600, 847)

    assert api.delete(f"/api/media/{media['id']}").status_code == 200
    assert s3.keys(prefix) == []
