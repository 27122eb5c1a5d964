"""The S3 path end to end against moto's S3 in server mode (real HTTP on a local port):
upload, list, get, public links, renditions, delete, and per-tenant key prefixes."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import requests
from django_tenants.utils import schema_context
from PIL import Image

from apps.core.testing import Api, tenant_admin
from apps.media.tasks import media_make_renditions
from apps.media.tests.conftest import make_image, upload

ROOT = Path(__file__).resolve().parents[3]


def fetch(url: str) -> requests.Response:
    response = requests.get(url, timeout=10)
    response.raise_for_status()
    return response


def test_upload_list_get_renditions_delete_on_s3(api, tenant, s3, media_root, django_capture_on_commit_callbacks):
    data = make_image("JPEG", (1800, 1200))
    response = upload(api, data, file_name="Team Photo.jpg", alt_text="The team", content_type="image/jpeg")
    assert response.status_code == 201, response.json()
    media = response.json()["media"]

    key = media["spacesKey"]
    assert key == f"{tenant.schema_name}/media/{media['id']}/team-photo.jpg"
    assert s3.keys() == [key]
    obj = s3.get(key)
    assert obj["ContentType"] == "image/jpeg"
    assert obj["CacheControl"] == "public, max-age=31536000, immutable"
    assert list(media_root.iterdir()) == []  # nothing on local disk
    # link is the object's absolute URL on the S3 endpoint, and it serves the stored bytes
    assert media["link"] == f"{s3.endpoint}/{s3.bucket}/{key}"
    assert media["cdnUrl"] == media["link"]
    assert fetch(media["link"]).content == obj["Body"].read()

    listing = api.get("/api/media").json()
    assert [m["id"] for m in listing["media"]] == [media["id"]] and listing["totalItems"] == 1
    assert api.get(f"/api/media/{media['id']}").json()["media"] == media

    with schema_context(tenant.schema_name):
        media_make_renditions(media["id"])
    media = api.get(f"/api/media/{media['id']}").json()["media"]
    rendition_prefix = f"{tenant.schema_name}/media/{media['id']}/renditions/"
    assert s3.keys(rendition_prefix) == sorted(
        f"{rendition_prefix}{width}w.{ext}" for width in (150, 480, 960, 1600) for ext in ("jpg", "webp"))
    thumbnail = fetch(media["renditions"]["thumbnail"])
    assert thumbnail.headers["Content-Type"] == "image/webp"
    assert Image.open(io.BytesIO(thumbnail.content)).size == (150, 100)
    assert media["renditionsOriginalFormat"]["large"] == f"{s3.endpoint}/{s3.bucket}/{rendition_prefix}1600w.jpg"

    with django_capture_on_commit_callbacks(execute=True):
        assert api.delete(f"/api/media/{media['id']}").status_code == 200
    assert s3.keys() == []
    assert api.get("/api/media").json()["totalItems"] == 0


def test_refused_upload_stores_nothing_in_the_bucket(api, tenant, s3):
    response = upload(api, b"GIF89a but not really an image at all" * 10, file_name="fake.gif")
    assert response.status_code == 400
    assert s3.keys() == []


def test_cdn_base_url_makes_cdn_urls(api, s3, settings):
    settings.MEDIA_CDN_BASE_URL = "https://cdn.example.com"
    media = upload(api, make_image("PNG")).json()["media"]
    assert media["cdnUrl"] == f"https://cdn.example.com/{media['spacesKey']}"
    assert media["link"] == f"{s3.endpoint}/{s3.bucket}/{media['spacesKey']}"


def test_each_tenant_writes_under_its_own_prefix(api, tenant, other_tenant, s3):
    mine = upload(api, make_image(), file_name="a.png").json()["media"]
    other = Api(other_tenant, user=tenant_admin(other_tenant))
    theirs = upload(other, make_image(), file_name="b.png").json()["media"]

    assert s3.keys(f"{tenant.schema_name}/") == [mine["spacesKey"]]
    assert s3.keys(f"{other_tenant.schema_name}/") == [theirs["spacesKey"]]
    assert other.get(f"/api/media/{mine['id']}").status_code == 404
    assert other.delete(f"/api/media/{mine['id']}").status_code == 404
    assert s3.keys(f"{tenant.schema_name}/") == [mine["spacesKey"]]


def test_s3_is_selected_by_environment_variables():
    """settings.py builds the S3 storage from MEDIA_STORAGE=s3 and the S3_* variables."""
    code = (
        "import json; from config import settings as s; o = s.STORAGES['media']['OPTIONS'];"
        "print(json.dumps([s.STORAGES['media']['BACKEND'], o['bucket_name'], o['endpoint_url'], o['region_name'],"
        " o['access_key'], o['default_acl'], o['querystring_auth'], o['client_config'].s3, s.MEDIA_CDN_BASE_URL]))"
    )
    env = {
        **os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
        "MEDIA_STORAGE": "s3", "S3_ENDPOINT_URL": "https://nyc3.digitaloceanspaces.com", "S3_BUCKET": "acme-media",
        "S3_REGION": "nyc3", "S3_ACCESS_KEY_ID": "AKIDEXAMPLE", "S3_SECRET_ACCESS_KEY": "secret",
        "S3_DEFAULT_ACL": "public-read", "MEDIA_CDN_BASE_URL": "https://acme-media.nyc3.cdn.digitaloceanspaces.com/",
    }
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [
        "storages.backends.s3.S3Storage", "acme-media", "https://nyc3.digitaloceanspaces.com", "nyc3", "AKIDEXAMPLE",
        "public-read", False, {"addressing_style": "auto"}, "https://acme-media.nyc3.cdn.digitaloceanspaces.com",
    ]
    env.pop("S3_BUCKET")
    failed = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True)
    assert failed.returncode != 0 and "S3_BUCKET" in failed.stderr


def test_storage_down_is_503_and_leaves_no_row(api, tenant, settings):
    from django_tenants.utils import schema_context

    from apps.media.models import Media
    from apps.media.tests.conftest import _free_port
    from config.settings import s3_media_storage

    settings.STORAGES = {**settings.STORAGES, "media": s3_media_storage(
        bucket="nowhere", endpoint_url=f"http://127.0.0.1:{_free_port()}", access_key="k", secret_key="s",
        addressing_style="path")}
    response = upload(api, make_image())
    assert response.status_code == 503
    assert response.json() == {"success": False, "error": "unavailable",
                               "message": "Media storage is unavailable. Please try again later"}
    with schema_context(tenant.schema_name):
        assert Media.objects.count() == 0
