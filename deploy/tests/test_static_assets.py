"""The dashboard's built assets are sent pre-compressed (the .br/.gz files the build writes beside
each script) with a year of immutable caching, by every server the product runs behind: the
image's granian server (WhiteNoise; DEBUG on as under `make dev` and off as in production) and
the nginx front of deploy/nginx, which also sends the public content API to the cache tier and
everything else to the web processes with every route."""
from __future__ import annotations

import gzip
import http.server
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
ASSET = "assets/index-Ab12_xY9.js"
SCRIPT = b"console.log('dashboard');\n" * 400
BROTLI = b"\x1b\x8f brotli bytes from the build"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait(port: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            if process.poll() is not None:
                pytest.fail(f"server exited: {process.stderr.read().decode()[-2000:]}")
            time.sleep(0.2)
    pytest.fail("server did not start")


def _get(port: int, path: str, encoding: str | None):
    headers = {"Host": "localhost"}
    if encoding is not None:
        headers["Accept-Encoding"] = encoding
    request = urllib.request.Request(f"http://127.0.0.1:{port}/{path}", headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, response.headers, response.read()


@pytest.fixture
def dist(tmp_path):
    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_text("<!doctype html><html><head><!--cms-config--></head><body></body></html>")
    (tmp_path / ASSET).write_bytes(SCRIPT)
    (tmp_path / f"{ASSET}.gz").write_bytes(gzip.compress(SCRIPT))
    (tmp_path / f"{ASSET}.br").write_bytes(BROTLI)
    return tmp_path


def _assert_precompressed(port: int) -> None:
    status, headers, body = _get(port, ASSET, "gzip, deflate, br, zstd")
    assert status == 200
    assert headers["Content-Encoding"] == "br" and body == BROTLI
    assert "immutable" in headers["Cache-Control"] and "max-age=31536000" in headers["Cache-Control"]
    assert "Accept-Encoding" in headers["Vary"]
    assert headers["Content-Type"].startswith(("text/javascript", "application/javascript"))

    status, headers, body = _get(port, ASSET, "gzip, deflate")
    assert headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == SCRIPT

    status, headers, body = _get(port, ASSET, None)
    assert headers.get("Content-Encoding") in (None, "identity") and body == SCRIPT


@pytest.mark.parametrize("debug", ["0", "1"], ids=["production", "make-dev"])
def test_granian_and_whitenoise_send_the_build_s_compressed_files(dist, debug, django_db_setup):
    database = settings.DATABASES["default"]
    port = _free_port()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"postgres://{database['USER'] or 'postgres'}@{database['HOST'] or '127.0.0.1'}:"
                        f"{database['PORT'] or 5432}/{database['NAME']}",
        "REDIS_URL": settings.REDIS_URL,
        "ROOT_DOMAIN": "localhost",
        "DEBUG": debug,
        "DASHBOARD_DIST": str(dist),
        "WEB_HOST": "127.0.0.1",
        "WEB_PORT": str(port),
        "WEB_WORKERS": "1",
        "WEB_ACCESS_LOG": "0",
        "WEB_LOG_LEVEL": "warning",
    }
    process = subprocess.Popen([sys.executable, "-m", "config.serve"], cwd=ROOT, env=env, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait(port, process)
        _assert_precompressed(port)
        # The page itself is filled per host and never cached as immutable.
        status, headers, body = _get(port, "login", "br, gzip")
        assert status == 200 and b"window.__CMS__" in body
        assert "immutable" not in headers.get("Cache-Control", "")
    finally:
        _stop(process)


def _nginx_with_brotli() -> str | None:
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)
    if not nginx:
        return None
    modules = Path("/etc/nginx/modules-enabled")
    if not any("brotli" in p.name for p in modules.glob("*.conf")):
        return None
    return nginx


def _load_modules() -> str:
    """The system's module lines with absolute paths (they are relative to nginx's own prefix)."""
    lines = []
    for conf in sorted(Path("/etc/nginx/modules-enabled").glob("*.conf")):
        for line in conf.read_text().splitlines():
            line = line.strip()
            if line.startswith("load_module ") and "/" in line and not line.split()[1].startswith("/"):
                line = f"load_module /usr/share/nginx/{line.split()[1]}"
            if line.startswith("load_module"):
                lines.append(line.rstrip(";") + ";\n")
    return "".join(lines)


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
    process.wait(30)


def test_nginx_front_sends_the_build_s_compressed_files(dist, tmp_path_factory):
    nginx = _nginx_with_brotli()
    if nginx is None:
        pytest.skip("nginx with the brotli_static module is not installed (Debian: nginx-light "
                    "libnginx-mod-http-brotli-static)")
    port = _free_port()
    prefix = tmp_path_factory.mktemp("nginx")
    server = (ROOT / "deploy" / "nginx" / "default.conf").read_text()
    server = server.replace("listen 80 default_server;", f"listen 127.0.0.1:{port} default_server;")
    server = server.replace("root /usr/share/nginx/html;", f"root {dist};")
    backends = {name: _named_backend(name) for name in ("varnish", "web")}
    server = server.replace("proxy_pass http://varnish:6081;", f"proxy_pass http://127.0.0.1:{backends['varnish'].server_port};")
    server = server.replace("proxy_pass http://web:8000;", f"proxy_pass http://127.0.0.1:{backends['web'].server_port};")
    (prefix / "nginx.conf").write_text(
        _load_modules()
        # Workers would run as "nobody" under root and could not read the test's private folder.
        + ("user root;\n" if os.geteuid() == 0 else "")
        +         f"pid {prefix}/nginx.pid;\nerror_log {prefix}/error.log;\ndaemon off;\n"
        "events {}\n"
        f"http {{ include /etc/nginx/mime.types; access_log off; client_body_temp_path {prefix}; "
        f"proxy_temp_path {prefix};\n{server}\n}}\n"
    )
    process = subprocess.Popen([nginx, "-p", str(prefix), "-c", str(prefix / "nginx.conf")],
                               start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait(port, process)
        _assert_precompressed(port)
        for path, backend in (("/api/v1/posts?page=2", "varnish"), ("/api/v1/posts/slug/hello", "varnish"),
                              ("/api/posts", "web"), ("/login", "web"), ("/media/a.png", "web"), ("/", "web")):
            status, _, body = _get(port, path.lstrip("/"), None)
            assert (status, body) == (200, f"{backend} {path}".encode()), path
    finally:
        _stop(process)
        for backend in backends.values():
            backend.shutdown()
            backend.server_close()


def _named_backend(name: str) -> http.server.ThreadingHTTPServer:
    """An HTTP server on a free port answering every GET with its name and the path it got."""

    class Answer(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (the standard library's name)
            body = f"{name} {self.path}".encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
