"""An HTTP server on 127.0.0.1 (a free port) standing in for an old blog's image host: any path
ending in an image suffix answers a small PNG; `/missing/...` answers 404; `/bomb.png` a PNG of
400 million pixels (a few kilobytes); `/redirect?to=URL` a 302 to URL. `requests` counts what it
was asked for."""
from __future__ import annotations

import io
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from PIL import Image


def png(width: int = 8, height: int = 6, color=(200, 30, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), color).save(out, "PNG")
    return out.getvalue()


def bomb_png() -> bytes:
    out = io.BytesIO()
    Image.new("1", (20000, 20000)).save(out, "PNG")
    return out.getvalue()


class ImageServer:
    def __init__(self):
        server = self
        self.requests: list[str] = []
        self.image = png()
        self.bomb = bomb_png()

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):  # noqa: N802
                server.requests.append(self.path)
                parts = urlsplit(self.path)
                if parts.path == "/redirect":
                    self.send_response(302)
                    self.send_header("Location", parse_qs(parts.query)["to"][0])
                    self.end_headers()
                    return
                if parts.path.startswith("/missing/") or not parts.path.lower().endswith(
                        (".jpg", ".jpeg", ".png", ".gif", ".webp")):
                    self.send_response(404)
                    self.end_headers()
                    return
                body = server.bomb if parts.path.endswith("/bomb.png") else server.image
                self.send_response(200)
                self.send_header("Content-Type", "image/jpeg")  # a lie: the bytes decide
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.host = f"127.0.0.1:{self.port}"
        self.url = f"http://{self.host}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "ImageServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
