"""A local HTTP server that answers like the Gemini REST API's generateContent, for driving the
real google-genai client in tests. Replies are scripted per call; every request is recorded."""
from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

BLOCK = "block"  # a scripted reply: hold the request open until released


def text_reply(text: str, finish_reason: str = "STOP") -> tuple[int, dict]:
    return 200, {
        "candidates": [{
            "content": {"parts": [{"text": text}], "role": "model"},
            "finishReason": finish_reason,
            "index": 0,
        }],
        "usageMetadata": {"promptTokenCount": 42, "candidatesTokenCount": 99, "totalTokenCount": 141},
        "modelVersion": "gemini-test",
    }


def json_reply(data: dict) -> tuple[int, dict]:
    return text_reply(json.dumps(data))


def error_reply(code: int, status: str, message: str = "error", details: list | None = None) -> tuple[int, dict]:
    error = {"code": code, "message": message, "status": status}
    if details is not None:
        error["details"] = details
    return code, {"error": error}


def retry_info(delay: str) -> dict:
    return {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": delay}


def quota_failure(quota_id: str, metric: str = "generativelanguage.googleapis.com/generate_content_free_tier_requests"):
    return {
        "@type": "type.googleapis.com/google.rpc.QuotaFailure",
        "violations": [{"quotaMetric": metric, "quotaId": quota_id,
                        "quotaDimensions": {"location": "global", "model": "gemini-test"}, "quotaValue": "50"}],
    }


@dataclass
class Recorded:
    path: str
    headers: dict
    body: dict
    at: float


@dataclass
class FakeGemini:
    default: tuple = field(default_factory=lambda: json_reply({"metaTitle": "t", "metaDescription": "d",
                                                                "keywords": ["a"]}))
    replies: deque = field(default_factory=deque)
    requests: list[Recorded] = field(default_factory=list)
    received_blocking: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    server: ThreadingHTTPServer | None = None
    latency: float = 0.0  # seconds before each reply (benchmarks)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}"

    def script(self, *replies) -> None:
        self.replies.extend(replies)

    def gaps(self) -> list[float]:
        return [b.at - a.at for a, b in zip(self.requests, self.requests[1:])]

    def start(self) -> "FakeGemini":
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {}
                fake.requests.append(Recorded(self.path, dict(self.headers), body, time.monotonic()))
                reply = fake.replies.popleft() if fake.replies else fake.default
                if fake.latency:
                    time.sleep(fake.latency)
                if reply == BLOCK:
                    fake.received_blocking.set()
                    fake.release.wait(120)
                    reply = fake.default
                if not self.path.endswith(":generateContent"):
                    reply = error_reply(404, "NOT_FOUND", f"no route {self.path}")
                status, payload = reply
                out = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json; charset=UTF-8")
                    self.send_header("Content-Length", str(len(out)))
                    self.end_headers()
                    self.wfile.write(out)
                except OSError:
                    pass  # the client went away (e.g. a killed worker)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.release.set()
        if self.server:
            self.server.shutdown()
            self.server.server_close()
