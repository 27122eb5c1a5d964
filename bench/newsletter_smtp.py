"""The SMTP server of `make bench-newsletter` (bench/newsletter.py), in a process of its own: aiosmtpd
(the library of the tests' SMTP server, apps/core/mailcatcher.py) on 127.0.0.1, accepting every
message and counting it by envelope recipient and Message-ID; nothing else is kept (100,000 parsed
messages would weigh gigabytes and cost the server more than the senders).

    python bench/newsletter_smtp.py [--port 0]     prints `listening <port>`, then reads commands

Driven on stdin, one command a line, each answered with one JSON line on stdout:

    count        {"messages": n, "first": t, "last": t}   (time.time() of the first and last message)
    dump PATH    {"recipients": n}; PATH gets {recipient: [Message-ID of each copy received, ...]}
    reset        the counts emptied: {"messages": 0}
"""
from __future__ import annotations

import argparse
import json
import re
import socket
import sys
import threading
import time
from collections import defaultdict

# The header block's Message-ID (the product never folds its headers: apps.newsletters.sending).
MESSAGE_ID = re.compile(rb"^Message-ID:[ \t]*([^\r\n]*)", re.M | re.I)


class Counter:
    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        with self.lock:
            self.ids: dict[str, list[str]] = defaultdict(list)
            self.messages, self.first, self.last = 0, None, None

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's hook name
        content = envelope.content
        end = content.find(b"\r\n\r\n")
        found = MESSAGE_ID.search(content, 0, end if end >= 0 else len(content))
        message_id = found.group(1).strip().decode("ascii", "replace") if found else ""
        now = time.time()
        with self.lock:
            for recipient in envelope.rcpt_tos:
                self.ids[recipient.lower()].append(message_id)
            self.messages += 1
            self.first = self.first or now
            self.last = now
        return "250 Message accepted for delivery"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    from aiosmtpd.controller import Controller

    counter = Counter()
    port = args.port or free_port()
    # server_hostname: no reverse lookup of this host at each connection.
    controller = Controller(counter, hostname="127.0.0.1", port=port, server_hostname="bench-smtp")
    controller.start()
    print(f"listening {port}", flush=True)
    try:
        for line in sys.stdin:
            command, _, argument = line.strip().partition(" ")
            if command == "count":
                with counter.lock:
                    answer = {"messages": counter.messages, "first": counter.first, "last": counter.last}
            elif command == "dump":
                with counter.lock:
                    ids = {recipient: list(found) for recipient, found in counter.ids.items()}
                with open(argument, "w") as out:
                    json.dump(ids, out)
                answer = {"recipients": len(ids)}
            elif command == "reset":
                counter.reset()
                answer = {"messages": 0}
            else:
                answer = {"error": f"unknown command {command!r}"}
            print(json.dumps(answer), flush=True)
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
