"""Public content API fixtures: key-bound clients, a WSGI caller for the fast path, and a
private redis-server (started on a free port, so a test can stop it without touching the
shared one)."""
from __future__ import annotations

import io
import shutil
import socket
import subprocess
import time

import pytest
import redis
from django.core import signals
from django.db import close_old_connections, connection

from apps.core import redis_conn
from apps.core import ratelimit
from apps.core.testing import Api, host_of


@pytest.fixture(autouse=True)
def _fresh_redis_state():
    redis_conn.reset()
    yield
    redis_conn.reset()
    ratelimit._limiter.cache_clear()


def key_client(tenant, key: str | None = None, **headers) -> Api:
    if key is not None:
        headers["x-api-key"] = key
    return Api(tenant, headers=headers)


@pytest.fixture
def site(tenant):
    """The tenant's website: its content key."""
    return key_client(tenant, tenant.api_key)


@pytest.fixture
def preview(tenant):
    return key_client(tenant, tenant.preview_key)


class WsgiResponse:
    def __init__(self, status: str, headers: list, chunks):
        self.status_code = int(status.split()[0])
        self.headers = {name.lower(): value for name, value in headers}
        self.content = b"".join(chunks)
        if hasattr(chunks, "close"):
            chunks.close()

    def json(self):
        import json

        return json.loads(self.content)


def wsgi_call(app, tenant, path: str, *, key: str | None = None, query: str = "", method: str = "GET",
              headers: dict | None = None, body: bytes = b"", content_type: str = "application/json") -> WsgiResponse:
    environ = {
        "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": query, "SCRIPT_NAME": "",
        "SERVER_NAME": "testserver", "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": host_of(tenant), "wsgi.input": io.BytesIO(body), "wsgi.errors": io.StringIO(),
        "CONTENT_LENGTH": str(len(body)), "CONTENT_TYPE": content_type, "REMOTE_ADDR": "198.51.100.7",
        "wsgi.url_scheme": "http", "wsgi.version": (1, 0), "wsgi.multithread": False,
        "wsgi.multiprocess": False, "wsgi.run_once": False,
    }
    if key is not None:
        environ["HTTP_X_API_KEY"] = key
    for name, value in (headers or {}).items():
        environ["HTTP_" + name.upper().replace("-", "_")] = value
    captured = {}

    def start_response(status, response_headers, exc_info=None):
        captured["status"], captured["headers"] = status, response_headers

    # As Django's test client does: keep the test's connection (and transaction) open.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        response = WsgiResponse(*(lambda chunks: (captured["status"], captured["headers"], chunks))(
            app(environ, start_response)))
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)
        connection.set_schema_to_public()
    return response


@pytest.fixture
def wsgi_app():
    from django.core.handlers.wsgi import WSGIHandler

    from apps.public_api.fastpath import PublicApiFastPath

    return PublicApiFastPath(WSGIHandler())


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PrivateRedis:
    def __init__(self):
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = None

    def start(self):
        self.process = subprocess.Popen(
            [shutil.which("redis-server"), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                redis.Redis.from_url(self.url).ping()
                return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError("private redis-server did not start")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


@pytest.fixture
def private_redis(settings):
    """Settings pointed at a redis-server of this test's own (stop it with .stop())."""
    if not shutil.which("redis-server"):
        pytest.skip("redis-server is not installed")
    server = PrivateRedis()
    server.start()
    settings.REDIS_URL = server.url
    settings.CACHES = {**settings.CACHES, "default": {**settings.CACHES["default"], "LOCATION": server.url}}
    ratelimit._limiter.cache_clear()
    yield server
    server.stop()


@pytest.fixture
def lookup_codes(monkeypatch):
    """The reply codes of the fast path's Redis script, in order (apps.public_api.cache.Code:
    0 unknown host or key, 1 miss left to Django, 2 hit with the body, 6 hit on the worker's
    copy, 7 a list the fast path builds, ...)."""
    from apps.public_api import cache

    seen: list[int] = []
    real = cache.fast_lookup

    def spy(**kwargs):
        found = real(**kwargs)
        seen.append(found.code)
        return found

    monkeypatch.setattr(cache, "fast_lookup", spy)
    return seen
