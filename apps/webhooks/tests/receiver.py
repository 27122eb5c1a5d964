"""A real HTTP receiver for webhook tests (http.server in a thread on a free port) that checks
each delivery's signature with the recipe of docs/webhooks.md."""
from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def verify(secret: str, headers, body: bytes, tolerance: int = 300) -> bool:
    """The verification recipe of docs/webhooks.md, as a receiver would write it."""
    timestamp = headers["Webhook-Timestamp"]
    if abs(time.time() - int(timestamp)) > tolerance:
        return False
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(f"v1={expected}", sig) for sig in headers["Webhook-Signature"].split())


class Receiver:
    def __init__(self):
        self.statuses: list[int] = []  # answered in turn; then 200
        self.received: list[dict] = []
        self.secret: str | None = None
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                at = time.monotonic()  # when the request arrived (bench/webhooks.py)
                with receiver._lock:
                    status = receiver.statuses.pop(0) if receiver.statuses else 200
                    receiver.received.append({
                        "headers": dict(self.headers), "body": body, "json": json.loads(body), "path": self.path,
                        "valid": receiver.secret is not None and verify(receiver.secret, self.headers, body),
                        "status": status, "at": at,
                    })
                self.send_response(status)
                self.send_header("Content-Type", "text/plain")
                self.end_headers()
                self.wfile.write(f"answered {status}".encode())

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks/build"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()

    def wait_for(self, count: int, timeout: float = 20.0) -> list[dict]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if len(self.received) >= count:
                    return list(self.received)
            time.sleep(0.05)
        raise AssertionError(f"expected {count} deliveries, got {len(self.received)}")
