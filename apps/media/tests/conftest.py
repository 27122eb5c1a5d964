"""Media test fixtures: a private MEDIA_ROOT per test, image factories, and an S3 service
(moto in server mode, a real HTTP endpoint on a free local port) for the S3 path."""
from __future__ import annotations

import io
import json
import socket
import uuid

import boto3
import pytest
from django.test.client import MULTIPART_CONTENT
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from config.settings import s3_media_storage

S3_KEY_ID = "test-key-id"
S3_SECRET = "test-secret-key"
S3_REGION = "us-east-1"


@pytest.fixture(autouse=True)
def media_root(tmp_path, settings):
    root = tmp_path / "media-root"
    root.mkdir()
    settings.MEDIA_ROOT = root
    return root


def make_image(fmt: str = "PNG", size: tuple[int, int] = (640, 480), color=(30, 120, 200), mode: str = "RGB",
               **save_options) -> bytes:
    buffer = io.BytesIO()
    image = Image.new(mode, size, color)
    # A little detail so encoders do not collapse the picture to nothing.
    for x in range(0, size[0], max(1, size[0] // 8)):
        for y in range(size[1]):
            image.putpixel((x, y), (255, 255, 255) if mode == "RGB" else 255)
    image.save(buffer, fmt, **save_options)
    return buffer.getvalue()


def upload(api, data: bytes, file_name: str = "photo.png", alt_text: str | None = "A photo", content_type: str = "image/png",
           **extra):
    fields = {
        "file": SimpleUploadedFile(file_name, data, content_type=content_type),
        "fileName": file_name,
        "fileType": content_type,
        "fileSize": str(len(data)),
        **extra,
    }
    if alt_text is not None:
        fields["altText"] = alt_text
    return api.post("/api/media/upload", fields, content_type=MULTIPART_CONTENT)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def moto_endpoint():
    """moto's S3 in server mode: real HTTP, started by the tests, one per xdist worker."""
    from moto.server import ThreadedMotoServer

    port = _free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    yield f"http://127.0.0.1:{port}"
    server.stop()


class S3:
    def __init__(self, endpoint: str, bucket: str):
        self.endpoint = endpoint
        self.bucket = bucket
        self.client = boto3.client(
            "s3", endpoint_url=endpoint, region_name=S3_REGION, aws_access_key_id=S3_KEY_ID,
            aws_secret_access_key=S3_SECRET,
        )

    def keys(self, prefix: str = "") -> list[str]:
        pages = self.client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=prefix)
        return sorted(item["Key"] for page in pages for item in page.get("Contents", ()))

    def get(self, key: str) -> dict:
        return self.client.get_object(Bucket=self.bucket, Key=key)

    @property
    def env(self) -> dict[str, str]:
        """The environment that selects this bucket through settings.py (for a worker)."""
        return {
            "MEDIA_STORAGE": "s3", "S3_ENDPOINT_URL": self.endpoint, "S3_BUCKET": self.bucket,
            "S3_REGION": S3_REGION, "S3_ACCESS_KEY_ID": S3_KEY_ID, "S3_SECRET_ACCESS_KEY": S3_SECRET,
            "S3_ADDRESSING_STYLE": "path",
        }


@pytest.fixture
def s3(moto_endpoint, settings):
    """A fresh bucket, and the media storage pointed at it (as MEDIA_STORAGE=s3 would)."""
    bucket = f"media-{uuid.uuid4().hex[:12]}"
    service = S3(moto_endpoint, bucket)
    service.client.create_bucket(Bucket=bucket)
    # Public read, as a deployment's bucket policy makes it (docs/media.md, Storage).
    service.client.put_bucket_policy(Bucket=bucket, Policy=json.dumps({
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject",
                       "Resource": f"arn:aws:s3:::{bucket}/*"}],
    }))
    settings.STORAGES = {
        **settings.STORAGES,
        settings.MEDIA_STORAGE_ALIAS: s3_media_storage(
            bucket=bucket, endpoint_url=moto_endpoint, region=S3_REGION, access_key=S3_KEY_ID,
            secret_key=S3_SECRET, addressing_style="path",
        ),
    }
    settings.MEDIA_STORAGE = "s3"
    return service
