"""A real SMTP server (aiosmtpd) that keeps what it receives: the tests' and the browser flows'
inbox. Not used by the product itself.

    with SmtpCatcher() as smtp:          # a free port on 127.0.0.1
        ... smtp.url ...                 # smtp://127.0.0.1:<port> (EMAIL_URL)
        [message] = smtp.wait_for(1)     # email.message.EmailMessage objects

`python -m apps.core.mailcatcher --port 0 --dir DIR` runs one on its own (the browser flows'
harness, a local catcher for `make dev`): it prints `listening <port>` and writes each message as
DIR/<n>.eml, with DIR/<n>.json (to, subject, headers, text, html, links) beside it.
"""
from __future__ import annotations

import argparse
import email
import email.policy
import re
import socket
import threading
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class _Handler:
    def __init__(self, catcher: "SmtpCatcher"):
        self.catcher = catcher

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's hook name
        with self.catcher.lock:
            if self.catcher.refuse > 0:  # a server that is failing: the sender must try again later
                self.catcher.refuse -= 1
                return "451 Try again later"
            message = email.message_from_bytes(envelope.content, policy=email.policy.default)
            self.catcher.messages.append(message)
            if self.catcher.directory:
                self.catcher.write(message, envelope.content)
        return "250 Message accepted for delivery"

    async def handle_QUIT(self, server, session, envelope):  # noqa: N802
        if self.catcher.quit_delay:  # a server slow to close: the message was accepted already
            import asyncio

            await asyncio.sleep(self.catcher.quit_delay)
        return "221 Bye"


class SmtpCatcher:
    def __init__(self, port: int = 0, directory: str | Path | None = None):
        self.port = port or free_port()
        self.directory = Path(directory) if directory else None
        self.messages: list[email.message.EmailMessage] = []
        self.lock = threading.Lock()
        self.refuse = 0  # answer the next N messages with a temporary failure
        self.quit_delay = 0.0  # seconds before answering QUIT
        self._controller = None

    def write(self, message, raw: bytes) -> None:
        """DIR/<n>.eml (as received) and DIR/<n>.json (to, subject, headers, text, html, links:
        decoded; `headers` by name, the last of a repeated one), each written whole (renamed into place)."""
        import json

        number = len(self.messages)
        text, html = parts(message)
        summary = {"to": str(message["To"]), "subject": str(message["Subject"]),
                   "headers": {name: str(value) for name, value in message.items()}, "text": text, "html": html,
                   "links": links(message)}
        for suffix, data in ((".eml", raw), (".json", json.dumps(summary).encode())):
            path = self.directory / f"{number:05d}{suffix}"
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_bytes(data)
            tmp.rename(path)

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def start(self) -> "SmtpCatcher":
        from aiosmtpd.controller import Controller

        if self.directory:
            self.directory.mkdir(parents=True, exist_ok=True)
        self._controller = Controller(_Handler(self), hostname="127.0.0.1", port=self.port)
        self._controller.start()
        return self

    def stop(self) -> None:
        if self._controller:
            self._controller.stop()
            self._controller = None

    def __enter__(self) -> "SmtpCatcher":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def wait_for(self, count: int, timeout: float = 30.0) -> list:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.messages) >= count:
                    return list(self.messages)
            time.sleep(0.05)
        raise AssertionError(f"expected {count} emails, received {len(self.messages)}")

    def to(self, address: str) -> list:
        with self.lock:
            return [m for m in self.messages if address.lower() in str(m["To"]).lower()]


def parts(message) -> tuple[str, str]:
    """(plain text, HTML) of a received message."""
    text = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    return (text.get_content() if text else "", html.get_content() if html else "")


def links(message) -> list[str]:
    """Every http(s) address in the plain-text part, in order."""
    return re.findall(r"https?://[^\s<>\"]+", parts(message)[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--dir", required=True)
    args = parser.parse_args()
    catcher = SmtpCatcher(args.port, args.dir).start()
    print(f"listening {catcher.port}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        catcher.stop()


if __name__ == "__main__":
    main()
